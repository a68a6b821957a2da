// The pivot page of `numacube serve`. The engine computes every number: this script only builds SQL from the
// configuration, posts it to POST /v1/query, and lays the answers out as a grid (Tabulator) and a bar chart
// (ECharts). Totals are queries of their own (GROUP BY the rows only, the columns only, nothing), so AVG and
// COUNT DISTINCT totals are right. The configuration lives in the URL's fragment; a link reproduces the view.
// Live: the server pushes the table's version as server-sent events (GET /v1/tables/NAME/events) and the pivot is
// re-queried when it changed.
"use strict";

(() => {
  const AGGREGATES = ["SUM", "AVG", "COUNT", "MIN", "MAX", "COUNT DISTINCT"];
  const MAX_SERIES = 24;
  const MAX_CELLS = 200000;      // more is cut, and the page says so
  const MAX_COLUMNS = 500;       // more column members than this: refused, put the column on rows or filter it
  const $ = (id) => document.getElementById(id);

  let tables = [];          // GET /v1/tables
  let state = null;         // {table, rows: [], cols: [], agg, measure, filters: {col: [values]}}
  let grid = null;          // the Tabulator
  let gridBuilt = null;     // resolves when the Tabulator is built
  let gridColumnsKey = "";  // the column layout the grid has, to keep its scroll position on live updates
  let chart = null;
  let shownVersion = null;  // the table version the pivot shows
  let running = null;       // the refresh in flight, or null
  let again = false;        // a refresh was asked for while one ran
  const timings = [];       // {what, ms}: interaction to painted, read by tools/pivot-check
  window.numacubeTimings = timings;

  // ---- SQL ----------------------------------------------------------------------------------------------------
  const ident = (name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : '"' + name.replaceAll('"', '""') + '"';
  const literal = (v) => "'" + String(v).replaceAll("'", "''") + "'";

  function measureSql(s) {
    if (s.agg === "COUNT DISTINCT") return "COUNT(DISTINCT " + ident(s.measure) + ")";
    return s.agg + "(" + ident(s.measure) + ")";
  }

  function whereSql(s) {
    const parts = Object.entries(s.filters)
      .filter(([, values]) => values.length > 0)
      .map(([col, values]) => values.length === 1
        ? ident(col) + " = " + literal(values[0])
        : "(" + values.map((v) => ident(col) + " = " + literal(v)).join(" OR ") + ")");
    return parts.length ? " WHERE " + parts.join(" AND ") : "";
  }

  function groupSql(s, by) {
    const select = by.map(ident).concat([measureSql(s) + " AS v"]).join(", ");
    let sql = "SELECT " + select + " FROM " + ident(s.table) + whereSql(s);
    if (by.length) sql += " GROUP BY " + by.map(ident).join(", ") + " ORDER BY " + by.map(ident).join(", ");
    return sql;
  }

  /** The statements of a view: the cells, then the totals that the layout needs. */
  function statements(s) {
    const by = s.rows.concat(s.cols);
    const q = { cells: groupSql(s, by) + (by.length ? " LIMIT " + (MAX_CELLS + 1) : "") };
    if (s.rows.length && s.cols.length) {
      q.rowTotals = groupSql(s, s.rows);
      q.colTotals = groupSql(s, s.cols);
    }
    if (s.rows.length || s.cols.length) q.grand = groupSql(s, []);
    return q;
  }

  class QueryError extends Error {
    constructor(body, sql, status) {
      super(body.message || "HTTP " + status);
      Object.assign(this, body, { sql, status });
    }
  }

  async function query(sql) {
    const r = await fetch("v1/query", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sql }),
    });
    let body;
    try {
      body = await r.json();
    } catch {
      throw new QueryError({ message: "the server answered HTTP " + r.status + " without JSON" }, sql, r.status);
    }
    if (!r.ok || body.error) throw new QueryError(body.error || {}, sql, r.status);
    return body;
  }

  async function getJson(path) {
    const r = await fetch(path);
    const body = await r.json();
    if (!r.ok || body.error) throw new QueryError(body.error || {}, "GET " + path, r.status);
    return body;
  }

  // ---- state and URL ------------------------------------------------------------------------------------------
  function columnsOf(table) {
    const t = tables.find((x) => x.name === table);
    return t ? t.columns : [];
  }

  function isText(table, col) {
    const c = columnsOf(table).find((x) => x.name === col);
    return !!c && c.type === "VARCHAR";
  }

  function isNumeric(type) {
    return /^(BIGINT|INTEGER|INT|DOUBLE|DECIMAL|REAL|FLOAT|SMALLINT)/.test(type);
  }

  function defaults(table) {
    const cols = columnsOf(table);
    const text = cols.filter((c) => c.type === "VARCHAR").map((c) => c.name);
    const numbers = cols.filter((c) => isNumeric(c.type)).map((c) => c.name);
    const measure = numbers.includes("pnl") ? "pnl" : (numbers[0] || (cols[0] && cols[0].name) || "");
    return { table, rows: text.slice(0, 1), cols: [], agg: numbers.length ? "SUM" : "COUNT", measure, filters: {} };
  }

  function fromUrl() {
    const p = new URLSearchParams(location.hash.slice(1));
    const table = p.get("table");
    if (!table || !tables.some((t) => t.name === table)) return null;
    const names = new Set(columnsOf(table).map((c) => c.name));
    const list = (key) => (p.get(key) || "").split(",").filter((x) => names.has(x));
    const s = defaults(table);
    s.rows = list("rows");
    s.cols = list("cols").filter((c) => !s.rows.includes(c));
    if (AGGREGATES.includes(p.get("agg"))) s.agg = p.get("agg");
    if (names.has(p.get("measure"))) s.measure = p.get("measure");
    for (const [key, value] of p) {
      if (key.startsWith("f.") && names.has(key.slice(2))) (s.filters[key.slice(2)] ||= []).push(value);
    }
    return s;
  }

  function toUrl(s) {
    const p = new URLSearchParams();
    p.set("table", s.table);
    p.set("rows", s.rows.join(","));
    p.set("cols", s.cols.join(","));
    p.set("agg", s.agg);
    p.set("measure", s.measure);
    for (const [col, values] of Object.entries(s.filters)) {
      if (values.length === 0) p.append("f." + col, "");
      for (const v of values) p.append("f." + col, v);
    }
    return "#" + p.toString();
  }

  function changed(what) {
    for (const col of Object.keys(state.filters)) state.filters[col] = state.filters[col].filter((v) => v !== "");
    listen();
    const hash = toUrl(state);
    if (location.hash !== hash) history.replaceState(null, "", hash);
    drawControls();
    refresh(what);
  }

  // ---- controls -----------------------------------------------------------------------------------------------
  function option(value, text, selected) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text ?? value;
    o.selected = !!selected;
    return o;
  }

  function chip(name, onRemove, list) {
    const c = document.createElement("span");
    c.className = "chip";
    c.draggable = true;
    c.dataset.name = name;
    c.textContent = name;
    c.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", JSON.stringify({ list, name })));
    const x = document.createElement("button");
    x.type = "button";
    x.textContent = "×";
    x.title = "remove " + name;
    x.addEventListener("click", onRemove);
    c.append(x);
    return c;
  }

  function drawAxis(list, box, adder) {
    box.replaceChildren(...state[list].map((name) => chip(name, () => {
      state[list] = state[list].filter((x) => x !== name);
      changed("remove " + name);
    }, list)));
    const used = new Set(state.rows.concat(state.cols));
    adder.replaceChildren(option("", "+ add…"),
      ...columnsOf(state.table).filter((c) => !used.has(c.name)).map((c) => option(c.name)));
  }

  function dropTarget(list, box) {
    box.addEventListener("dragover", (e) => { e.preventDefault(); box.classList.add("drop"); });
    box.addEventListener("dragleave", () => box.classList.remove("drop"));
    box.addEventListener("drop", (e) => {
      e.preventDefault();
      box.classList.remove("drop");
      let moved;
      try { moved = JSON.parse(e.dataTransfer.getData("text/plain")); } catch { return; }
      if (!moved || moved.list === list) return;
      state[moved.list] = state[moved.list].filter((x) => x !== moved.name);
      state[list].push(moved.name);
      changed("move " + moved.name);
    });
  }

  // The filters as drawn, so that ticking a value does not list every column's values again.
  let drawnFilters = "";
  const filtersKey = () => JSON.stringify([state.table, Object.entries(state.filters).map(([c, v]) => [c, [...v].sort()])]);

  function drawFilters() {
    const text = columnsOf(state.table).filter((c) => c.type === "VARCHAR" && !(c.name in state.filters));
    $("add-filter").replaceChildren(option("", "+ filter…"), ...text.map((c) => option(c.name)));
    if (filtersKey() === drawnFilters) return;
    drawnFilters = filtersKey();
    const box = $("filters");
    box.replaceChildren(...Object.keys(state.filters).map((col) => {
      const f = document.createElement("div");
      f.className = "filter";
      f.dataset.column = col;
      f.append(chip(col, () => { delete state.filters[col]; changed("unfilter " + col); }, "filters"));
      const search = document.createElement("input");
      search.type = "search";
      search.placeholder = "search " + col;
      const values = document.createElement("div");
      values.className = "values";
      values.textContent = "loading…";
      search.addEventListener("input", () => {
        for (const l of values.querySelectorAll("label")) {
          l.hidden = !l.textContent.toLowerCase().includes(search.value.toLowerCase());
        }
      });
      f.append(search, values);
      loadValues(col, values);
      return f;
    }));
  }

  async function loadValues(col, box) {
    const sql = "SELECT " + ident(col) + ", COUNT(*) AS n FROM " + ident(state.table) + " GROUP BY " + ident(col)
      + " ORDER BY " + ident(col) + " LIMIT 1000";
    try {
      const answer = await query(sql);
      const chosen = new Set(state.filters[col] || []);
      box.replaceChildren(...answer.rows.filter((r) => r[0] !== null).map(([value, n]) => {
        const l = document.createElement("label");
        const cb = document.createElement("input");
        cb.type = "checkbox";
        cb.value = value;
        cb.checked = chosen.has(value);
        cb.addEventListener("change", () => {
          const now = new Set(state.filters[col]);
          if (cb.checked) now.add(value); else now.delete(value);
          state.filters[col] = [...now];
          drawnFilters = filtersKey();  // the boxes already show it
          changed("filter " + col);
        });
        l.append(cb, " " + value + " ", Object.assign(document.createElement("small"), { textContent: "(" + n + ")" }));
        return l;
      }));
    } catch (e) {
      box.textContent = "cannot list values: " + e.message;
    }
  }

  function drawControls() {
    $("table").replaceChildren(...tables.map((t) => option(t.name, t.name + " (" + t.rows + " rows)",
      t.name === state.table)));
    drawAxis("rows", $("rows"), $("add-row"));
    drawAxis("cols", $("cols"), $("add-col"));
    $("agg").value = state.agg;
    $("measure").replaceChildren(...columnsOf(state.table).map((c) => option(c.name, c.name, c.name === state.measure)));
    drawFilters();
  }

  function wireControls() {
    $("table").addEventListener("change", (e) => { state = defaults(e.target.value); shownVersion = null; changed("table"); });
    $("add-row").addEventListener("change", (e) => { if (e.target.value) { state.rows.push(e.target.value); changed("add row"); } });
    $("add-col").addEventListener("change", (e) => { if (e.target.value) { state.cols.push(e.target.value); changed("add column"); } });
    $("agg").addEventListener("change", (e) => { state.agg = e.target.value; changed("aggregate"); });
    $("measure").addEventListener("change", (e) => { state.measure = e.target.value; changed("measure"); });
    $("add-filter").addEventListener("change", (e) => {
      if (e.target.value) { state.filters[e.target.value] = []; changed("add filter"); }
    });
    dropTarget("rows", $("rows"));
    dropTarget("cols", $("cols"));
    window.addEventListener("hashchange", () => {
      const s = fromUrl();
      if (s && toUrl(s) !== toUrl(state)) { state = s; drawControls(); refresh("link"); }
    });
  }

  // ---- the pivot ----------------------------------------------------------------------------------------------
  const keyOf = (values) => JSON.stringify(values);
  const label = (v) => v === null ? "(null)" : String(v);

  /** Lays the answers out: row keys x column keys, a Total column and a Total row. */
  function pivot(s, answers) {
    const nr = s.rows.length;
    const nc = s.cols.length;
    const rowKeys = new Map();
    const colKeys = new Map();
    const cells = new Map();
    for (const r of answers.cells.rows.slice(0, MAX_CELLS)) {
      const rk = r.slice(0, nr);
      const ck = r.slice(nr, nr + nc);
      if (!rowKeys.has(keyOf(rk))) rowKeys.set(keyOf(rk), rk);
      if (!colKeys.has(keyOf(ck))) colKeys.set(keyOf(ck), ck);
      cells.set(keyOf(rk) + "|" + keyOf(ck), r[nr + nc]);
    }
    const byKey = (answer, n) => new Map((answer ? answer.rows : []).map((r) => [keyOf(r.slice(0, n)), r[n]]));
    const rowTotals = nc && nr ? byKey(answers.rowTotals, nr) : null;
    const colTotals = nc && nr ? byKey(answers.colTotals, nc) : null;
    const grand = answers.grand ? answers.grand.rows[0][0] : null;
    const columns = [...colKeys.values()];
    if (nc === 0 && columns.length === 0) columns.push([]);
    const rows = [...rowKeys.values()];
    const type = answers.cells.columns[nr + nc].type;
    const digits = type === "BIGINT" ? 0 : 2;
    return { rows, columns, cells, rowTotals, colTotals, grand, nr, nc, digits };
  }

  /** A value as the grid shows it: counts as integers, other numbers with two decimals, the rest as text. */
  function numberText(v, digits) {
    if (typeof v !== "number") return v === null || v === undefined ? "" : String(v);
    return v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }

  // The exact value the server sent goes to data-value (tools/pivot-check compares it with POST /v1/query's).
  function valueFormatter(cell, params) {
    const v = cell.getValue();
    const el = cell.getElement();
    el.dataset.value = v === null || v === undefined ? "" : String(v);
    el.classList.add("num");
    return numberText(v, params.digits);
  }

  function gridData(p, s) {
    const data = [];
    const showTotalCol = p.nc > 0 && p.nr > 0;
    p.rows.forEach((rk, i) => {
      const row = { _id: i };
      rk.forEach((v, j) => { row["r" + j] = label(v); });
      p.columns.forEach((ck, j) => { row["c" + j] = p.cells.get(keyOf(rk) + "|" + keyOf(ck)) ?? null; });
      if (showTotalCol) row.total = p.rowTotals.get(keyOf(rk)) ?? null;
      data.push(row);
    });
    if (p.nr > 0) {
      const total = { _id: "total", _total: true, r0: "Total" };
      p.columns.forEach((ck, j) => {
        total["c" + j] = p.nc === 0 ? p.grand : (p.colTotals.get(keyOf(ck)) ?? null);
      });
      if (showTotalCol) total.total = p.grand;
      data.push(total);
    }
    const measure = s.agg === "COUNT DISTINCT" ? "COUNT(DISTINCT " + s.measure + ")" : s.agg + "(" + s.measure + ")";
    const columns = s.rows.map((name, j) => ({ title: name, field: "r" + j, frozen: true, headerSort: false }));
    p.columns.forEach((ck, j) => columns.push({
      title: p.nc ? ck.map(label).join(" / ") : measure, field: "c" + j, hozAlign: "right",
      headerSort: false, formatter: valueFormatter, formatterParams: { digits: p.digits },
    }));
    if (showTotalCol) {
      columns.push({ title: "Total", field: "total", hozAlign: "right", headerSort: false, formatter: valueFormatter,
        formatterParams: { digits: p.digits }, cssClass: "total" });
    }
    return { data, columns };
  }

  // A new layout of columns gets a new grid (quicker than Tabulator's setColumns then setData); the same layout,
  // as on a live update, keeps the grid and its scroll position and replaces the data only.
  async function drawGrid(data, columns) {
    const key = JSON.stringify(columns.map((c) => [c.title, c.field, c.formatterParams]));
    if (grid && key !== gridColumnsKey) {
      await gridBuilt;
      grid.destroy();
      grid = null;
    }
    if (!grid) {
      grid = new Tabulator($("grid"), {
        data, columns, index: "_id", layout: "fitDataFill", maxHeight: "70vh",
        rowFormatter: (row) => row.getElement().classList.toggle("total", !!row.getData()._total),
        placeholder: "no rows",
      });
      gridBuilt = new Promise((resolve) => grid.on("tableBuilt", resolve));
      gridColumnsKey = key;
      await gridBuilt;
      return;
    }
    await gridBuilt;
    await grid.replaceData(data);
  }

  function drawChart(p, s) {
    chart ||= echarts.init($("chart"));
    const categories = p.nr ? p.rows.map((rk) => rk.map(label).join(" / ")) : ["all"];
    const series = p.columns.slice(0, MAX_SERIES).map((ck) => ({
      name: p.nc ? ck.map(label).join(" / ") : s.agg + "(" + s.measure + ")",
      type: "bar",
      data: (p.nr ? p.rows : [[]]).map((rk) => {
        const v = p.cells.get(keyOf(rk) + "|" + keyOf(ck));
        return typeof v === "number" ? v : null;
      }),
    }));
    chart.setOption({
      animation: false,
      tooltip: { trigger: "axis" },
      legend: { type: "scroll", top: 0 },
      grid: { left: 70, right: 20, top: 30, bottom: 60 },
      xAxis: { type: "category", data: categories, axisLabel: { rotate: categories.length > 12 ? 45 : 0 } },
      yAxis: { type: "value" },
      series,
    }, true);
  }

  function showError(e) {
    const box = $("error");
    let text = "ERROR" + (e.code ? " " + e.code : "") + ": " + e.message;
    if (e.line && e.column && e.sql) {
      const line = e.sql.split("\n")[e.line - 1] || "";
      text += "\nLINE " + e.line + ": " + line + "\n" + " ".repeat(("LINE " + e.line + ": ").length + e.column - 1) + "^";
    } else if (e.sql) {
      text += "\n" + e.sql;
    }
    box.textContent = text;
    box.hidden = false;
    document.body.dataset.state = "error";
  }

  function showStats(answers, versions, started) {
    const st = answers.cells.stats || {};
    const ms = Object.values(answers).reduce((sum, a) => sum + ((a.stats && a.stats.ms) || 0), 0);
    const cut = answers.cells.row_count > MAX_CELLS;
    const parts = [
      (cut ? "the first " + MAX_CELLS.toLocaleString("en-US") + " cells only (filter to see the rest)"
        : answers.cells.row_count + " cells"),
      "server " + (st.ms ?? 0).toFixed(1) + " ms" + (Object.keys(answers).length > 1
        ? " (" + ms.toFixed(1) + " ms for " + Object.keys(answers).length + " queries with totals)" : ""),
      "rows scanned " + (st.rows_scanned ?? 0).toLocaleString("en-US"),
      "morsels " + (st.morsels ?? 0) + ", at home " + (st.morsels_home_pct ?? 0) + "%",
      "version " + versions.join("/"),
      "painted in " + Math.round(performance.now() - started) + " ms",
    ];
    $("stats").textContent = parts.join(" · ");
  }

  /** Queries the view and paints it; a refresh asked for while one runs runs once after it. */
  function refresh(what) {
    if (running) { again = what; return running; }
    running = (async () => {
      const started = performance.now();
      const s = structuredClone(state);
      document.body.dataset.state = "loading";
      const q = statements(s);
      $("sql").textContent = Object.values(q).join(";\n") + ";";
      try {
        const names = Object.keys(q);
        const got = await Promise.all(names.map((n) => query(q[n])));
        const answers = Object.fromEntries(names.map((n, i) => [n, got[i]]));
        const versions = [...new Set(got.map((a) => a.stats && a.stats.version))];
        if (JSON.stringify(s) !== JSON.stringify(state)) return;  // the user changed the view meanwhile
        const p = pivot(s, answers);
        if (p.columns.length > MAX_COLUMNS) {
          throw new QueryError({ message: "too many column members: " + p.columns.length + " (at most " + MAX_COLUMNS
            + ") — put " + s.cols.join(", ") + " on rows, or filter it" }, "", 0);
        }
        const { data, columns } = gridData(p, s);
        $("error").hidden = true;
        await drawGrid(data, columns);
        drawChart(p, s);
        shownVersion = Math.min(...versions);
        $("live").textContent = "version " + versions.join("/") + " · live";
        $("live").classList.remove("stale");
        document.body.dataset.version = String(shownVersion);
        showStats(answers, versions, started);
        timings.push({ what, ms: performance.now() - started });
        // the totals may have read a newer version than the cells: ask again so that all agree
        if (versions.length > 1) again = again || "versions differ";
        document.body.dataset.state = "ready";
      } catch (e) {
        showError(e);
      }
    })().finally(() => {
      running = null;
      if (again) { const w = again; again = false; refresh(w); }
    });
    return running;
  }

  // Live: the server pushes the table's version (GET /v1/tables/NAME/events, server-sent events); a new one
  // re-queries the view. EventSource reconnects on its own after a network error.
  let events = null;
  let eventsTable = null;

  function listen() {
    if (eventsTable === state.table) return;
    if (events) events.close();
    eventsTable = state.table;
    events = new EventSource("v1/tables/" + encodeURIComponent(state.table) + "/events");
    events.addEventListener("version", (e) => {
      const v = JSON.parse(e.data).version;
      $("live").classList.remove("stale");
      if (v === shownVersion) $("live").textContent = "version " + v + " · live";
      if (shownVersion !== null && v !== shownVersion) {
        $("live").classList.add("stale");
        refresh("live: version " + v);
      }
    });
    events.addEventListener("error", () => {
      $("live").textContent = "reconnecting…";
      $("live").classList.add("stale");
    });
  }

  async function start() {
    try {
      tables = (await getJson("v1/tables")).tables;
    } catch (e) {
      showError(e);
      return;
    }
    if (!tables.length) {
      $("stats").textContent = "the server has no tables";
      return;
    }
    state = fromUrl() || defaults(tables.some((t) => t.name === "trades") ? "trades" : tables[0].name);
    wireControls();
    changed("open");
  }

  start();
})();

// The controls of the page, drawn from a view and the model: fields on rows and columns (selects, or chips dragged
// between them), the measure, the target currency, sorting and top-N, the chart type, value filters (with search)
// and ranges. Every change goes through `change(what, mutate)`, which mutates the view and re-queries.
import { isNumeric } from "./model.js";
import { Source, dimsOf, query } from "./sql.js";
import { topOf } from "./view.js";

const $ = (id) => document.getElementById(id);

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

/** Draws and wires the controls; `get()` is the current view and model. */
export class Controls {
  constructor(get, change) {
    this.get = get;
    this.change = change;
    this.drawnFilters = "";   // the filters as drawn, so that ticking a value does not list every value again
    this.drawnRanges = "";
  }

  wire(onTable) {
    const ch = this.change;
    $("table").addEventListener("change", (e) => onTable(e.target.value));
    $("add-row").addEventListener("change", (e) => e.target.value && ch("add row", (v) => v.rows.push(e.target.value)));
    $("add-col").addEventListener("change", (e) => e.target.value && ch("add column", (v) => v.cols.push(e.target.value)));
    $("agg").addEventListener("change", (e) => ch("aggregate", (v) => { v.agg = e.target.value; }));
    $("measure").addEventListener("change", (e) => ch("measure", (v) => { v.measure = e.target.value; }));
    $("ccy").addEventListener("change", (e) => ch("currency " + e.target.value, (v) => { v.ccy = e.target.value; }));
    $("sort").addEventListener("change", (e) => ch("sort " + e.target.value, (v) => { v.sort = e.target.value; }));
    $("top").addEventListener("change", (e) => ch("top " + e.target.value, (v) => {
      v.top = topOf(e.target.value);
    }));
    $("chart-type").addEventListener("change", (e) => ch("chart " + e.target.value, (v) => { v.chart = e.target.value; }));
    $("add-filter").addEventListener("change", (e) => e.target.value
      && ch("add filter", (v) => { v.filters[e.target.value] = []; }));
    $("add-range").addEventListener("change", (e) => e.target.value
      && ch("add range", (v) => { v.ranges[e.target.value] = ["", ""]; }));
    this.dropTarget("rows");
    this.dropTarget("cols");
  }

  dropTarget(list) {
    const box = $(list);
    box.addEventListener("dragover", (e) => { e.preventDefault(); box.classList.add("drop"); });
    box.addEventListener("dragleave", () => box.classList.remove("drop"));
    box.addEventListener("drop", (e) => {
      e.preventDefault();
      box.classList.remove("drop");
      let moved;
      try { moved = JSON.parse(e.dataTransfer.getData("text/plain")); } catch { return; }
      if (!moved || moved.list === list || !["rows", "cols"].includes(moved.list)) return;
      this.change("move " + moved.name, (v) => {
        v[moved.list] = v[moved.list].filter((x) => x !== moved.name);
        v[list].push(moved.name);
      });
    });
  }

  draw(tables) {
    const { view, model } = this.get();
    $("table").replaceChildren(...tables.map((t) => option(t.name, t.name + " (" + t.rows + " rows)",
      t.name === view.table)));
    const used = new Set(view.rows.concat(view.cols));
    const free = model.axisFields().filter((f) => !used.has(f.id)).map((f) => f.id);
    for (const list of ["rows", "cols"]) {
      $(list).replaceChildren(...view[list].map((name) => chip(name, () => this.change("remove " + name, (v) => {
        v[list] = v[list].filter((x) => x !== name);
      }), list)));
      $(list === "rows" ? "add-row" : "add-col").replaceChildren(option("", "+ add…"), ...free.map((id) => option(id)));
    }
    $("agg").value = view.agg;
    $("measure").replaceChildren(...model.columns.map((c) => option(c.name, c.name, c.name === view.measure)));
    $("ccy-box").hidden = !model.fx;
    $("ccy").replaceChildren(option("", "as booked", !view.ccy),
      ...(model.fx ? model.fx.currencies : []).map((c) => option(c, c, c === view.ccy)));
    $("sort").value = view.sort;
    $("top").value = view.top ? String(view.top) : "";
    $("chart-type").value = view.chart;
    this.drawFilters();
    this.drawRanges();
  }

  drawFilters() {
    const { view, model } = this.get();
    const text = model.axisFields().filter((f) => f.type === "VARCHAR" && !(f.id in view.filters));
    $("add-filter").replaceChildren(option("", "+ filter…"), ...text.map((f) => option(f.id)));
    const key = JSON.stringify([view.table, Object.entries(view.filters).map(([c, v]) => [c, [...v].sort()])]);
    if (key === this.drawnFilters) return;
    this.drawnFilters = key;
    $("filters").replaceChildren(...Object.keys(view.filters).map((id) => {
      const f = document.createElement("div");
      f.className = "filter";
      f.dataset.column = id;
      f.append(chip(id, () => this.change("unfilter " + id, (v) => { delete v.filters[id]; }), "filters"));
      const search = document.createElement("input");
      search.type = "search";
      search.placeholder = "search " + id;
      const values = document.createElement("div");
      values.className = "values";
      values.textContent = "loading…";
      search.addEventListener("input", () => {
        for (const l of values.querySelectorAll("label")) {
          l.hidden = !l.textContent.toLowerCase().includes(search.value.toLowerCase());
        }
      });
      f.append(search, values);
      this.loadValues(id, values);
      return f;
    }));
  }

  async loadValues(id, box) {
    const { view, model } = this.get();
    const src = new Source(model, dimsOf({ rows: [id], cols: [], filters: {}, open: [], openCols: [] }, model));
    const f = src.field(id);
    const sql = "SELECT " + f + ", COUNT(*) AS n" + src.from() + " GROUP BY " + f + " ORDER BY " + f + " LIMIT 1000";
    try {
      const answer = await query(sql);
      const chosen = new Set(view.filters[id] || []);
      box.replaceChildren(...answer.rows.filter((r) => r[0] !== null).map(([value, n]) => {
        const l = document.createElement("label");
        const cb = document.createElement("input");
        cb.type = "checkbox";
        cb.value = value;
        cb.checked = chosen.has(value);
        cb.addEventListener("change", () => this.change("filter " + id, (v) => {
          const now = new Set(v.filters[id]);
          if (cb.checked) now.add(value); else now.delete(value);
          v.filters[id] = [...now];
          this.drawnFilters = JSON.stringify([v.table, Object.entries(v.filters).map(([c, x]) => [c, [...x].sort()])]);
        }));
        l.append(cb, " " + value + " ", Object.assign(document.createElement("small"), { textContent: "(" + n + ")" }));
        return l;
      }));
    } catch (e) {
      box.textContent = "cannot list values: " + e.message;
    }
  }

  drawRanges() {
    const { view, model } = this.get();
    const ranged = model.columns.filter((c) => (isNumeric(c.type) || c.type === "DATE") && !(c.name in view.ranges));
    $("add-range").replaceChildren(option("", "+ range…"), ...ranged.map((c) => option(c.name)));
    const key = JSON.stringify([view.table, view.ranges]);
    if (key === this.drawnRanges) return;
    this.drawnRanges = key;
    $("ranges").replaceChildren(...Object.entries(view.ranges).map(([col, ends]) => {
      const r = document.createElement("div");
      r.className = "range";
      r.dataset.column = col;
      r.append(chip(col, () => this.change("unrange " + col, (v) => { delete v.ranges[col]; }), "ranges"));
      const type = model.columnType(col) === "DATE" ? "date" : "number";
      ["from", "to"].forEach((end, i) => {
        const input = document.createElement("input");
        input.type = type;
        input.step = "any";
        input.name = end;
        input.placeholder = end;
        input.setAttribute("aria-label", col + " " + end);
        input.value = ends[i];
        input.addEventListener("change", () => this.change("range " + col, (v) => {
          v.ranges[col][i] = input.value;
          this.drawnRanges = JSON.stringify([v.table, v.ranges]);
        }));
        r.append(input);
      });
      return r;
    }));
  }
}

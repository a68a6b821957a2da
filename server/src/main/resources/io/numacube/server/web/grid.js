// The pivot's layout and its grid (Tabulator, with its virtual DOM for many rows). The answers of statements()
// (sql.js) become row paths x column keys: a row path is the values of the row fields, then of the levels opened
// below the last one (a member opened shows its children under it). Nothing is aggregated here.
import { MAX_CELLS } from "./sql.js";

export const keyOf = (values) => JSON.stringify(values);
export const label = (v) => v === null ? "(null)" : String(v);

/** Lays the answers out: row paths (tree order) x column keys, a Total column and a Total row. */
export function pivot(view, model, answers) {
  const nr = view.rows.length;
  const nc = view.cols.length;
  const colKeys = new Map();
  const cells = new Map();
  const rowTotals = new Map();
  const children = new Map();   // parent path key -> child paths, in the answer's order
  const levels = nr ? model.levelsBelow(view.rows.at(-1)) : [];
  const seen = new Set();
  const member = (path, n) => {
    if (n === 0 || seen.has(keyOf(path))) return;
    seen.add(keyOf(path));
    const parent = keyOf(n > nr ? path.slice(0, -1) : null);
    (children.get(parent) || children.set(parent, []).get(parent)).push(path);
  };
  // members are listed in the order of the answer that names them: the cells' at the top (then `order`), the
  // opened levels' totals where there are columns (sorted as the rows are, by sql.js)
  const read = (answer, n, totals) => {
    for (const r of (answer ? answer.rows : []).slice(0, MAX_CELLS)) {
      const path = r.slice(0, n);
      if (totals) {
        rowTotals.set(keyOf(path), r[n]);
        if (n > nr) member(path, n);
        continue;
      }
      const ck = r.slice(n, n + nc);
      if (!colKeys.has(keyOf(ck))) colKeys.set(keyOf(ck), ck);
      cells.set(keyOf(path) + "|" + keyOf(ck), r[n + nc]);
      member(path, n);
    }
  };
  read(answers.cells, nr, false);
  if (nc && nr) read(answers.rowTotals, nr, true);
  for (let d = 1; answers["level" + d]; d++) {
    if (nc) read(answers["levelTotals" + d], nr + d, true);
    read(answers["level" + d], nr + d, false);
  }
  const colTotals = new Map((answers.colTotals ? answers.colTotals.rows : []).map((r) => [keyOf(r.slice(0, nc)), r[nc]]));
  const grand = answers.grand ? answers.grand.rows[0][0] : null;
  const open = new Set(view.open.map(keyOf));
  const rows = nr ? treeRows(answers.order, children, open, nr) : [[]];   // no row fields: one row of the columns
  const columns = [...colKeys.values()];
  if (nc === 0 && columns.length === 0) columns.push([]);
  const type = answers.cells.columns[nr + nc].type;
  const digits = type === "BIGINT" ? 0 : 2;
  return { rows, columns, cells, rowTotals, colTotals, grand, nr, nc, digits, levels, open };
}

/** The row paths in tree order: the top members (ranked by `order` when sorted), each opened one then its children. */
function treeRows(order, children, open, nr) {
  let top = children.get(keyOf(null)) || [];
  if (order) {
    const shown = new Set(top.map(keyOf));
    top = order.rows.map((r) => r.slice(0, nr)).filter((p) => shown.has(keyOf(p)));
  }
  const rows = [];
  const walk = (paths) => {
    for (const p of paths) {
      rows.push(p);
      if (open.has(keyOf(p))) walk(children.get(keyOf(p)) || []);
    }
  };
  walk(top);
  return rows;
}

/** A value as the grid shows it: counts as integers, other numbers with two decimals, the rest as text. */
export function numberText(v, digits) {
  if (typeof v !== "number") return v === null || v === undefined ? "" : String(v);
  return v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// The exact value the server sent goes to data-value (tools/pivot-check compares it with POST /v1/query's).
function valueFormatter(cell, params) {
  const v = cell.getValue();
  const el = cell.getElement();
  el.dataset.value = v === null || v === undefined ? "" : String(v);
  el.classList.add("num", "cell");
  return numberText(v, params.digits);
}

// The tree column: the member, indented by its depth, with a toggle where it has children to show.
function memberFormatter(cell) {
  const d = cell.getRow().getData();
  const el = cell.getElement();
  const text = cell.getValue() ?? "";
  el.dataset.member = text;
  if (!d._path) return text;
  el.dataset.path = keyOf(d._path);
  const box = document.createElement("span");
  box.className = "member";
  box.style.paddingLeft = (d._depth * 1.2) + "em";
  if (d._canOpen) {
    const t = document.createElement("button");
    t.type = "button";
    t.className = "toggle";
    t.textContent = d._open ? "▾" : "▸";
    t.title = (d._open ? "collapse " : "expand ") + text;
    box.append(t);
  }
  box.append(text);
  return box;
}

export function gridData(p, view, measure) {
  const data = [];
  const totalCol = p.nc > 0 && p.nr > 0;
  const open = new Set(view.open.map(keyOf));
  p.rows.forEach((path) => {
    const depth = path.length - p.nr;
    const row = { _id: keyOf(path), _path: path, _depth: depth, _open: open.has(keyOf(path)),
      _canOpen: depth < p.levels.length };
    for (let j = 0; j < p.nr; j++) row["r" + j] = label(path[j]);
    if (depth > 0) row["r" + (p.nr - 1)] = label(path.at(-1));
    p.columns.forEach((ck, j) => { row["c" + j] = p.cells.get(keyOf(path) + "|" + keyOf(ck)) ?? null; });
    if (totalCol) row.total = p.rowTotals.get(keyOf(path)) ?? null;
    data.push(row);
  });
  if (p.nr > 0) {
    const total = { _id: "total", _total: true, _path: null, r0: "Total" };
    p.columns.forEach((ck, j) => { total["c" + j] = p.nc === 0 ? p.grand : (p.colTotals.get(keyOf(ck)) ?? null); });
    if (totalCol) total.total = p.grand;
    data.push(total);
  }
  const tree = view.open.length && p.levels.length ? " › " + p.levels.join(" › ") : "";
  const columns = view.rows.map((name, j) => ({ title: name + (j === p.nr - 1 ? tree : ""), field: "r" + j,
    frozen: true, headerSort: false, formatter: memberFormatter }));
  p.columns.forEach((ck, j) => columns.push({
    title: p.nc ? ck.map(label).join(" / ") : measure, field: "c" + j, hozAlign: "right",
    headerSort: false, formatter: valueFormatter, formatterParams: { digits: p.digits },
  }));
  if (totalCol) {
    columns.push({ title: "Total", field: "total", hozAlign: "right", headerSort: false, formatter: valueFormatter,
      formatterParams: { digits: p.digits }, cssClass: "total" });
  }
  return { data, columns };
}

/**
 * The Tabulator in an element. A new layout of columns gets a new grid (quicker than Tabulator's setColumns then
 * setData); the same layout, as on a live update, keeps the grid and its scroll position and replaces the data.
 */
export class Grid {
  constructor(element, onCell) {
    this.element = element;
    this.onCell = onCell;   // (row data, field) on a click on a value
    this.table = null;
    this.built = null;
    this.key = "";
  }

  async draw(data, columns) {
    const key = JSON.stringify(columns.map((c) => [c.title, c.field, c.formatterParams]));
    if (this.table && key !== this.key) {
      await this.built;
      this.table.destroy();
      this.table = null;
    }
    if (!this.table) {
      this.table = new Tabulator(this.element, {
        data, columns, index: "_id", layout: "fitDataFill", maxHeight: "70vh",
        rowFormatter: (row) => row.getElement().classList.toggle("total", !!row.getData()._total),
        placeholder: "no rows",
      });
      this.built = new Promise((resolve) => this.table.on("tableBuilt", resolve));
      this.table.on("cellClick", (e, cell) => {
        const field = cell.getField();
        if (field === "total" || field.startsWith("c")) this.onCell(cell.getRow().getData(), field);
      });
      this.key = key;
      await this.built;
      return;
    }
    await this.built;
    await this.table.replaceData(data);
  }
}

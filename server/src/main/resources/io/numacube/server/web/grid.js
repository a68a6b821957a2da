// The pivot's layout and its grid (Tabulator, with its virtual DOM for many rows). The answers of statements()
// (sql.js) become row paths x column paths: a row path is the values of the row fields, then of the levels opened
// below the last one (a member opened shows its children under it); a column path likewise (a member opened shows
// its children columns right after it). Nothing is aggregated here.
import { Exact, MAX_CELLS } from "./sql.js";

export const keyOf = (values) => JSON.stringify(values);
const MEMBER_WIDTH = 400;   // pixels
export const label = (v) => v === null ? "(null)" : String(v);

/** The members of one axis as they are first named, each under its parent (the axis's top members under null). */
class Members {
  constructor(n) {
    this.n = n;                  // the axis's fields: a longer path is a member opened below the last one
    this.children = new Map();   // parent path key -> child paths, in the order first named
    this.seen = new Set();
  }

  add(path) {
    const key = keyOf(path);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const parent = keyOf(path.length > this.n ? path.slice(0, -1) : null);
    (this.children.get(parent) || this.children.set(parent, []).get(parent)).push(path);
  }

  /** The paths in tree order: the top members (`top` when given), each opened one then its children. */
  tree(open, top) {
    const out = [];
    const walk = (paths) => {
      for (const p of paths) {
        out.push(p);
        if (open.has(keyOf(p))) walk(this.children.get(keyOf(p)) || []);
      }
    };
    walk(top || this.children.get(keyOf(null)) || []);
    return out;
  }
}

/**
 * Lays the answers out: row paths (tree order) x column paths (tree order), a Total column and a Total row. Members
 * are listed in the order of the answer that names them first: the cells' at the top (the rows then ranked by
 * `order` when sorted), the opened levels' totals where there are some (sorted as the rows are, by sql.js), else
 * their cells'.
 */
export function pivot(view, model, answers) {
  const nr = view.rows.length;
  const nc = view.cols.length;
  const cells = new Map();
  const rowTotals = new Map();
  const colTotals = new Map();
  const rowMembers = new Members(nr);
  const colMembers = new Members(nc);
  const levels = nr ? model.levelsBelow(view.rows.at(-1)) : [];
  const colLevels = nc ? model.levelsBelow(view.cols.at(-1)) : [];
  const read = (answer, n, m) => {
    for (const r of (answer ? answer.rows : []).slice(0, MAX_CELLS)) {
      const path = r.slice(0, n);
      const ck = r.slice(n, n + m);
      if (n) rowMembers.add(path);
      if (m) colMembers.add(ck);
      cells.set(keyOf(path) + "|" + keyOf(ck), r[n + m]);
    }
  };
  // the top members are those the cells name (a cut answer shows no rows of totals only); opened ones, their totals'
  const totals = (answer, n, into, members) => {
    for (const r of answer ? answer.rows : []) {
      into.set(keyOf(r.slice(0, n)), r[n]);
      if (n > members.n) members.add(r.slice(0, n));
    }
  };
  read(answers.cells, nr, nc);
  if (nc && nr) totals(answers.rowTotals, nr, rowTotals, rowMembers);
  if (nc && nr) totals(answers.colTotals, nc, colTotals, colMembers);
  for (let d = 1; answers["level" + d]; d++) {
    if (nc) totals(answers["levelTotals" + d], nr + d, rowTotals, rowMembers);
    read(answers["level" + d], nr + d, nc);
  }
  for (let d = 1; answers["col" + d]; d++) {
    totals(answers["colTotals" + d], nc + d, colTotals, colMembers);
    read(answers["col" + d], nr, nc + d);
    for (let r = 1; answers["level" + r + "col" + d]; r++) read(answers["level" + r + "col" + d], nr + r, nc + d);
  }
  const grand = answers.grand ? answers.grand.rows[0][0] : null;
  const open = new Set(view.open.map(keyOf));
  const colOpen = new Set(view.openCols.map(keyOf));
  const top = nr && answers.order ? sortedTop(answers.order, rowMembers, nr) : null;
  const rows = nr ? rowMembers.tree(open, top) : [[]];   // no row fields: one row of the columns
  const columns = nc ? colMembers.tree(colOpen) : [[]];
  const digits = digitsOf(answers.cells.columns[nr + nc].type);
  return { rows, columns, cells, rowTotals, colTotals, grand, nr, nc, digits, levels, colLevels, open, colOpen };
}

/** The top row members ranked by `order` (the rows' totals sorted by the measure), those the cells name. */
function sortedTop(order, members, nr) {
  const shown = new Set((members.children.get(keyOf(null)) || []).map(keyOf));
  return order.rows.map((r) => r.slice(0, nr)).filter((p) => shown.has(keyOf(p)));
}

/** The decimals a measure of SQL type `type` is shown with: a DECIMAL's scale, none for a BIGINT, else two. */
export function digitsOf(type) {
  const decimal = /^DECIMAL\(\d+, *(\d+)\)$/.exec(type);
  if (decimal) return Number(decimal[1]);
  return type === "BIGINT" ? 0 : 2;
}

/**
 * A value as the grid shows it: numbers grouped by thousands with `digits` decimals (a number that would show as
 * zero there, 1e-9, as it is), an Exact number as the server wrote it, grouped; the rest as text.
 */
export function numberText(v, digits) {
  if (v instanceof Exact) return v.text.replace(/^(-?)(\d+)(?=\.\d*$|$)/, (_, sign, whole) => sign
    + whole.replace(/\B(?=(\d{3})+$)/g, ","));
  if (typeof v !== "number") return v === null || v === undefined ? "" : String(v);
  if (v !== 0 && Math.abs(v) < 0.5 * 10 ** -digits) return String(v);
  return v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// Tabulator puts a formatter's or a title's string into innerHTML: every text of the data (members, column names, a
// MIN of a text column) goes in as a text node, never as markup.
const textNode = (text) => document.createTextNode(text);

// The exact value the server sent goes to data-value (tools/pivot-check compares it with POST /v1/query's).
function valueFormatter(cell, params) {
  const v = cell.getValue();
  const el = cell.getElement();
  el.dataset.value = v === null || v === undefined ? "" : String(v);
  el.classList.add("num", "cell");
  return textNode(numberText(v, params.digits));
}

// The tree column: the member, indented by its depth, with a toggle where it has children to show.
function memberFormatter(cell) {
  const d = cell.getRow().getData();
  const el = cell.getElement();
  const text = cell.getValue() ?? "";
  el.dataset.member = text;
  el.title = text;
  if (!d._path) return textNode(text);
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

/** A column's title: its fields' members joined by " / ", then the members opened below the last one by " › ". */
export const columnTitle = (ck, nc) => ck.slice(0, nc).map(label).join(" / ")
  + ck.slice(nc).map((v) => " › " + label(v)).join("");

// A column's header: its title, with a toggle where its member has children columns to show.
function columnHeader(cell, params) {
  const box = document.createElement("span");
  box.className = "member";
  box.dataset.title = params.title;
  if (params.canOpen) {
    box.dataset.colPath = keyOf(params.path);
    const t = document.createElement("button");
    t.type = "button";
    t.className = "toggle";
    t.textContent = params.open ? "▾" : "▸";
    t.title = (params.open ? "collapse " : "expand ") + label(params.path.at(-1));
    box.append(t);
  }
  box.append(params.title);
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
  // a member's column is at most MEMBER_WIDTH wide (a longer member is cut, whole in its tooltip): a frozen column
  // wider than the grid would hide every value
  const columns = view.rows.map((name, j) => ({ title: name + (j === p.nr - 1 ? tree : ""), field: "r" + j,
    frozen: true, headerSort: false, formatter: memberFormatter, titleFormatter: (c) => textNode(c.getValue()),
    maxWidth: MEMBER_WIDTH }));
  p.columns.forEach((ck, j) => {
    const title = p.nc ? columnTitle(ck, p.nc) : measure;
    const depth = ck.length - p.nc;
    columns.push({ title, field: "c" + j, hozAlign: "right", headerSort: false, formatter: valueFormatter,
      formatterParams: { digits: p.digits }, titleFormatter: columnHeader, titleFormatterParams: { title, path: ck,
        depth, canOpen: p.nc > 0 && depth < p.colLevels.length, open: p.colOpen.has(keyOf(ck)) } });
  });
  if (totalCol) {
    columns.push({ title: "Total", field: "total", hozAlign: "right", headerSort: false, formatter: valueFormatter,
      formatterParams: { digits: p.digits }, cssClass: "total", titleFormatter: (c) => textNode(c.getValue()) });
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
    const key = JSON.stringify(columns.map((c) => [c.title, c.field, c.formatterParams, c.titleFormatterParams]));
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

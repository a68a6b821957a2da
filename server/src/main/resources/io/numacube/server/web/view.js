// A view of the pivot: what the user chose, as plain data, and its form in the URL's fragment (a link reproduces
// it). A view read from a URL keeps only what the model knows, so a stale link degrades to a valid view.
import { CHART_TYPES } from "./chart.js";
import { isNumeric } from "./model.js";
import { MAX_CELLS, parseJson } from "./sql.js";

export const AGGREGATES = ["SUM", "AVG", "COUNT", "MIN", "MAX", "COUNT DISTINCT"];

/**
 * {table, rows, cols: field ids; agg, measure: a fact column; filters: {field id: [values]}; ranges: {column:
 * [lo, hi]} ("" for an open end); open: row paths expanded; openCols: column paths expanded; ccy: target currency or ""; sort: "" | "desc" | "asc";
 * top: rows kept when sorted (0: all); chart: one of CHART_TYPES}
 */
export function defaults(model) {
  const text = model.columns.filter((c) => c.type === "VARCHAR").map((c) => c.name);
  const numbers = model.columns.filter((c) => isNumeric(c.type)).map((c) => c.name);
  const measure = numbers.includes("pnl") ? "pnl" : (numbers[0] || (model.columns[0] && model.columns[0].name) || "");
  return { table: model.fact, rows: text.slice(0, 1), cols: [], agg: numbers.length ? "SUM" : "COUNT", measure,
    filters: {}, ranges: {}, open: [], openCols: [], ccy: "", sort: "", top: 0, chart: "bar" };
}

/** Rows kept when sorted, from what a user typed or a link holds: 0 (all) unless a whole number, at most MAX_CELLS. */
export const topOf = (text) => Math.min(MAX_CELLS, Math.max(0, Number.parseInt(text || "0", 10) || 0));

export const tableInUrl = () => new URLSearchParams(location.hash.slice(1)).get("table");

export function fromUrl(model) {
  const p = new URLSearchParams(location.hash.slice(1));
  const fields = model.fields;
  const list = (key) => (p.get(key) || "").split(",").filter((x) => fields.has(x));
  const s = defaults(model);
  s.rows = list("rows");
  s.cols = list("cols").filter((c) => !s.rows.includes(c));
  if (AGGREGATES.includes(p.get("agg"))) s.agg = p.get("agg");
  if (model.columnType(p.get("measure"))) s.measure = p.get("measure");
  for (const [key, value] of p) {
    // value filters are on text fields only, as the controls offer them (a number compared with text is an error)
    const filtered = key.startsWith("f.") && fields.get(key.slice(2));
    if (filtered && filtered.type === "VARCHAR") (s.filters[key.slice(2)] ||= []).push(value);
    const range = /^(.*)\.\.(.*)$/.exec(value);
    if (key.startsWith("r.") && model.columnType(key.slice(2)) && range) s.ranges[key.slice(2)] = [range[1], range[2]];
    if (key === "open" || key === "ocol") {
      try {
        const path = parseJson(value);
        const [paths, n] = key === "open" ? [s.open, s.rows.length] : [s.openCols, s.cols.length];
        if (Array.isArray(path) && path.length >= n) paths.push(path);
      } catch { /* a damaged link: that member stays closed */ }
    }
  }
  if (model.fx && model.fx.currencies.includes(p.get("ccy"))) s.ccy = p.get("ccy");
  if (["asc", "desc"].includes(p.get("sort"))) s.sort = p.get("sort");
  s.top = topOf(p.get("top"));
  if (CHART_TYPES.includes(p.get("chart"))) s.chart = p.get("chart");
  return s;
}

export function toUrl(s) {
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
  for (const [col, [lo, hi]] of Object.entries(s.ranges)) p.set("r." + col, lo + ".." + hi);
  for (const path of s.open) p.append("open", JSON.stringify(path));
  for (const path of s.openCols) p.append("ocol", JSON.stringify(path));
  if (s.ccy) p.set("ccy", s.ccy);
  if (s.sort) p.set("sort", s.sort);
  if (s.top) p.set("top", String(s.top));
  if (s.chart !== "bar") p.set("chart", s.chart);
  return "#" + p.toString();
}

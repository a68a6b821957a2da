// The SQL of a view, and POST /v1/query. A view names fields of the model (model.js); this module turns it into
// statements the engine runs: the cells, the totals the layout needs, one level of drill-down per depth opened on
// the rows, on the columns, and on both at once.
// Every value a user chose becomes a quoted literal, never SQL.

export const MAX_CELLS = 200000;   // more is cut, and the page says so

/**
 * The words the engine's SQL parser (Calcite 1.42) does not take as a bare column or table name in the page's
 * statements (found by running each of its keywords as a name in them: docs/campaigns/2026-11-27-pivot-page-hostile):
 * a column named date, order or group is written quoted.
 */
const RESERVED = new Set(`
  all any asof by call case create cross cursor date datetime define delete describe distinct drop except
  exists fetch final friday from full grant group grouping having in inner insert intersect interval into join
  json_scope left limit match_condition match_recognize merge minus monday new next not null offset on order
  outer over partition range right rollup row rows safe_cast safe_offset safe_ordinal saturday select set skip
  some stream sunday table tablesample then thursday time timestamp try_cast union unique unnest unsigned
  update using uuid values wednesday when where window with
`.trim().split(/\s+/));

export const ident = (name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name.toLowerCase()) ? name
  : '"' + name.replaceAll('"', '""') + '"';

/** A value as a literal: numbers and booleans as they are, everything else (text, ISO dates) quoted. */
export const literal = (v) => v instanceof Exact ? v.text
  : (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean" ? String(v)
    : "'" + String(v).replaceAll("'", "''") + "'";

/**
 * A number of an answer that a JavaScript number would change: a BIGINT beyond 2^53, a DECIMAL of more digits than a
 * double holds (99999999999999.9999). It keeps the text the server sent, which the page shows and puts back in SQL;
 * Number(x) is the nearest double, for charts. A number a double holds exactly (every DOUBLE, most DECIMALs) stays a
 * plain number. Immutable.
 */
export class Exact {
  constructor(text) {
    this.text = text;
  }

  valueOf() {
    return Number(this.text);
  }

  toString() {
    return this.text;
  }

  /** As the number it is (a link, a key of the layout), where the browser can write one; else as its text. */
  toJSON() {
    return typeof JSON.rawJSON === "function" ? JSON.rawJSON(this.text) : this.text;
  }
}

/** A decimal number's text as sign, significant digits and exponent, so that 1.50, 1.5 and 15e-1 are one text. */
function canonical(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return text;
  const fraction = m[3] || "";
  const all = (m[2] + fraction).replace(/^0+/, "");
  const digits = all.replace(/0+$/, "");
  if (!digits) return "0";
  return m[1] + digits + "e" + (Number(m[4] || 0) - fraction.length + all.length - digits.length);
}

/**
 * JSON.parse, keeping each number a double would change as an Exact (where the browser gives a reviver the source
 * text, as Chromium 114+, Firefox 135+ do; elsewhere numbers are doubles, as before).
 */
export function parseJson(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value !== "number" || !context || context.source === undefined) return value;
    const source = context.source;
    if (Number.isSafeInteger(value) && /^-?\d+$/.test(source)) return value;
    return canonical(source) === canonical(String(value)) ? value : new Exact(source);
  });
}

export class QueryError extends Error {
  constructor(body, sql, status) {
    super(body.message || "HTTP " + status);
    Object.assign(this, body, { sql, status });
  }
}

export async function query(sql) {
  const r = await fetch("v1/query", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sql }),
  });
  let body;
  try {
    body = parseJson(await r.text());
  } catch {
    throw new QueryError({ message: "the server answered HTTP " + r.status + " without JSON" }, sql, r.status);
  }
  if (!r.ok || body.error) throw new QueryError(body.error || {}, sql, r.status);
  return body;
}

export async function getJson(path) {
  const r = await fetch(path);
  const body = parseJson(await r.text());
  if (!r.ok || body.error) throw new QueryError(body.error || {}, "GET " + path, r.status);
  return body;
}

/**
 * The FROM clause and column references of one view. Without a join, fact columns are written bare (the SQL reads
 * as a user would write it); with one, every column is qualified by its table.
 */
export class Source {
  constructor(model, dims) {
    this.model = model;
    this.dims = [...new Set(dims)].sort();
  }

  /** The SQL of a fact column. */
  column(name) {
    return this.dims.length ? ident(this.model.fact) + "." + ident(name) : ident(name);
  }

  /** The SQL of a field (a fact column, a level of a date, a dimension attribute). */
  field(id) {
    const f = this.model.fields.get(id);
    const base = f.dim ? ident(f.dim) + "." + ident(f.column) : this.column(f.column);
    return f.expr ? f.expr(base) : base;
  }

  from() {
    const fact = ident(this.model.fact);
    return " FROM " + fact + this.dims.map((d) => {
      const key = this.model.dims.get(d).key;
      return " LEFT JOIN " + ident(d) + " ON " + fact + "." + ident(key) + " = " + ident(d) + "." + ident(key);
    }).join("");
  }

  /** field = value for each pair, NULL as IS NULL; an empty list is TRUE. */
  matches(ids, values) {
    return ids.map((id, i) => values[i] === null ? this.field(id) + " IS NULL"
      : this.field(id) + " = " + literal(values[i]));
  }
}

/** The dimension tables a view reads: those of its fields, of the drill-down levels it opened, and FX. */
export function dimsOf(view, model) {
  const ids = view.rows.concat(view.cols, Object.keys(view.filters));
  if (view.open.length) ids.push(...model.levelsBelow(view.rows.at(-1)));
  if (view.openCols.length) ids.push(...model.levelsBelow(view.cols.at(-1)));
  const dims = ids.map((id) => model.fields.get(id)).filter((f) => f && f.dim).map((f) => f.dim);
  if (view.ccy && model.fx && converts(view)) dims.push(model.fx.table);
  return dims;
}

const converts = (view) => ["SUM", "AVG", "MIN", "MAX"].includes(view.agg);

/** The aggregate, converted to the target currency (view.ccy) after aggregation where the model knows FX. */
export function measureSql(view, src) {
  const m = src.column(view.measure);
  if (view.agg === "COUNT DISTINCT") return "COUNT(DISTINCT " + m + ")";
  const fx = src.model.fx;
  if (!view.ccy || !fx || !converts(view)) return view.agg + "(" + m + ")";
  const rate = ident(fx.table) + "." + ident(fx.rate);
  return view.agg + "(" + m + " * " + rate + ") / (SELECT " + ident(fx.rate) + " FROM " + ident(fx.table)
    + " WHERE " + ident(fx.key) + " = " + literal(view.ccy) + ")";
}

/** The terms of WHERE: value filters (OR within a field) and ranges (inclusive, either end open). */
export function filterTerms(view, src) {
  const terms = Object.entries(view.filters).filter(([, values]) => values.length > 0).map(([id, values]) => {
    const one = src.matches([id], [values[0]])[0];
    return values.length === 1 ? one : "(" + values.map((v) => src.matches([id], [v])[0]).join(" OR ") + ")";
  });
  for (const [col, [lo, hi]] of Object.entries(view.ranges)) {
    const type = src.model.columnType(col);
    const value = (v) => type === "DATE" ? "DATE " + literal(v) : literal(Number(v));
    const given = (v) => v !== "" && (type === "DATE" || Number.isFinite(Number(v)));  // an unfinished end is open
    if (given(lo)) terms.push(src.column(col) + " >= " + value(lo));
    if (given(hi)) terms.push(src.column(col) + " <= " + value(hi));
  }
  return terms;
}

const where = (terms) => terms.length ? " WHERE " + terms.join(" AND ") : "";

function groupSql(view, src, by, extra = [], order = null) {
  const keys = by.map((id) => src.field(id));
  const select = keys.concat([measureSql(view, src) + " AS v"]).join(", ");
  let sql = "SELECT " + select + src.from() + where(filterTerms(view, src).concat(extra));
  if (keys.length) sql += " GROUP BY " + keys.join(", ") + " ORDER BY " + (order || keys.join(", "));
  return sql;
}

/**
 * The open paths of one depth whose ancestors are all open (the others are not shown, so not queried): `opened` are
 * paths of an axis of `n` fields (view.open for the rows, view.openCols for the columns).
 */
export function visibleOpen(opened, n, depth) {
  const open = new Set(opened.map((p) => JSON.stringify(p)));
  return opened.filter((p) => p.length === n + depth
    && p.every((_, i) => i < n || open.has(JSON.stringify(p.slice(0, i + 1)))));
}

/**
 * The depths an axis shows, from 0 (its fields) down to the deepest level with a member opened: each one's fields
 * (the axis's, then the levels under its last field) and the term keeping the members opened one level up.
 */
function depthsOf(fields, opened, model, src) {
  const levels = fields.length ? model.levelsBelow(fields.at(-1)) : [];
  const depths = [{ ids: fields, under: [] }];
  for (let depth = 1; depth <= levels.length; depth++) {
    const parents = visibleOpen(opened, fields.length, depth - 1);
    if (!parents.length) break;
    const ids = fields.concat(levels.slice(0, depth - 1));
    const under = "(" + parents.map((p) => "(" + src.matches(ids, p).join(" AND ") + ")").join(" OR ") + ")";
    depths.push({ ids: fields.concat(levels.slice(0, depth)), under: [under] });
  }
  return depths;
}

/**
 * The statements of a view: the cells, the totals the layout needs, the rows' order when sorted by the measure (the
 * rows' totals ORDER BY v, LIMIT top), and for each depth of drill-down opened on the rows the children's cells (and
 * row totals) under the members opened, sorted as the rows are (levelD); for each depth opened on the columns the
 * children columns' cells (colD), their totals (colTotalsD) and their cells on the rows opened (levelEcolD).
 */
export function statements(view, model) {
  const src = new Source(model, dimsOf(view, model));
  const by = view.rows.concat(view.cols);
  const limit = " LIMIT " + (MAX_CELLS + 1);
  const q = { cells: groupSql(view, src, by) + (by.length ? limit : "") };
  if (view.rows.length && view.cols.length) {
    q.rowTotals = groupSql(view, src, view.rows);
    q.colTotals = groupSql(view, src, view.cols);
  }
  if (view.rows.length || view.cols.length) q.grand = groupSql(view, src, []);
  const sort = view.sort || (view.top > 0 ? "desc" : "");   // top N alone: the N largest
  const order = sort ? "v " + (sort === "asc" ? "ASC" : "DESC") : null;
  if (order && view.rows.length) {
    q.order = groupSql(view, src, view.rows, [], order) + (view.top > 0 ? " LIMIT " + view.top : "");
  }
  const rows = depthsOf(view.rows, view.open, model, src);
  const cols = depthsOf(view.cols, view.openCols, model, src);
  for (let depth = 1; depth < rows.length; depth++) {
    const { ids, under } = rows[depth];
    // children come in the order of their totals' answer (or of their cells' without columns): sorted as asked
    const hasCols = view.cols.length;
    q["level" + depth] = groupSql(view, src, ids.concat(view.cols), under, hasCols ? null : order) + limit;
    if (hasCols) q["levelTotals" + depth] = groupSql(view, src, ids, under, order);
  }
  for (let depth = 1; depth < cols.length; depth++) {
    const { ids, under } = cols[depth];
    q["col" + depth] = groupSql(view, src, view.rows.concat(ids), under) + limit;
    if (view.rows.length) q["colTotals" + depth] = groupSql(view, src, ids, under);
    for (let r = 1; r < rows.length; r++) {
      q["level" + r + "col" + depth] = groupSql(view, src, rows[r].ids.concat(ids), rows[r].under.concat(under)) + limit;
    }
  }
  return { q, src };
}

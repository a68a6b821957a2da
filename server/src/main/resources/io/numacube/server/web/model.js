// What a fact table offers the page: its fields (its columns; the year and month of each date; the attributes of the
// dimension tables it joins), the hierarchies to drill down, and a currency conversion. Nothing is declared: it is
// read from GET /v1/tables and from the data, with small queries on the dimension tables when a table is chosen.
//
// - A dimension: another table that shares a column (name and type) with the fact table and holds each value of it
//   once (COUNT(*) = COUNT(DISTINCT key)); joined as LEFT JOIN on that column, so no fact row is lost.
// - Its hierarchy: attribute A is under B when every A has one B (the pairs (B, A) are as many as the A) and B has
//   fewer values; A's parent is the finest such B. The key's ancestors, coarsest first, then the key, are the main
//   hierarchy (books: region -> desk -> trader -> book); an attribute off it drills through its ancestors to the key.
// - Dates: year -> month -> day, always.
// - FX: a dimension keyed by a currency column (named currency or ccy) with a rate column (the first number whose
//   name starts with "rate"): a measure in currency X is AGG(m * rate) / rate of X, converted after aggregation by
//   the engine.
import { ident, query } from "./sql.js";

const MAX_HIERARCHY_ATTRIBUTES = 10;
const isText = (type) => type === "VARCHAR" || type === "DATE";
export const isNumeric = (type) => /^(BIGINT|INTEGER|INT|DOUBLE|DECIMAL|REAL|FLOAT|SMALLINT)/.test(type);

/** The fields and hierarchies of one fact table; immutable once built. */
export class Model {
  constructor(fact, columns) {
    this.fact = fact;
    this.columns = columns;
    this.fields = new Map();
    this.hierarchies = [];
    this.dims = new Map();   // name -> {key}
    this.fx = null;          // {table, key, rate, currencies}
    for (const c of columns) {
      this.fields.set(c.name, { id: c.name, column: c.name, type: c.type });
      if (c.type === "DATE" || c.type.startsWith("TIMESTAMP")) this.addDate(c.name, c.type === "DATE");
    }
  }

  /** year > month > day of a date column (the day is the date itself; of a timestamp, its day as text). */
  addDate(name, isDate) {
    const level = (part, type, expr) => this.fields.set(name + "." + part, { id: name + "." + part, column: name,
      type, expr });
    level("year", "BIGINT", (sql) => "year(" + sql + ")");
    level("month", "VARCHAR", (sql) => "strftime(" + sql + ", '%Y-%m')");
    if (!isDate) level("day", "VARCHAR", (sql) => "strftime(" + sql + ", '%Y-%m-%d')");
    this.hierarchies.push([name + ".year", name + ".month", isDate ? name : name + ".day"]);
  }

  columnType(name) {
    const c = this.columns.find((x) => x.name === name);
    return c ? c.type : null;
  }

  /** The levels under a field in the first hierarchy that holds it with a level below; empty if none. */
  levelsBelow(id) {
    for (const h of this.hierarchies) {
      const i = h.indexOf(id);
      if (i >= 0 && i < h.length - 1) return h.slice(i + 1);
    }
    return [];
  }

  /** Fields that can be on rows, columns or a value filter: all but the fact's numbers. */
  axisFields() {
    return [...this.fields.values()].filter((f) => f.dim || f.expr || !isNumeric(f.type));
  }
}

/** Reads the model of table `fact` from the catalog and the data. */
export async function buildModel(tables, fact) {
  const t = tables.find((x) => x.name === fact);
  const model = new Model(fact, t.columns);
  const candidates = [];
  for (const d of tables) {
    if (d.name === fact || d.rows > t.rows) continue;
    for (const c of t.columns) {
      if (d.columns.some((x) => x.name === c.name && x.type === c.type)) candidates.push([d, c.name]);
    }
  }
  // a table the engine cannot count distinct values of is no dimension, rather than no page
  const unique = await Promise.all(candidates.map(([d, key]) => isKey(d.name, key).catch(() => false)));
  const chosen = new Map();
  candidates.forEach(([d, key], i) => { if (unique[i] && !chosen.has(d.name)) chosen.set(d.name, [d, key]); });
  const read = await Promise.all([...chosen.values()].map(([d, key]) => readDimension(d, key)));
  for (const r of read) addDimension(model, r);
  return model;
}

async function isKey(table, key) {
  const a = await query("SELECT COUNT(*), COUNT(DISTINCT " + ident(key) + ") FROM " + ident(table));
  return a.rows[0][0] > 0 && a.rows[0][0] === a.rows[0][1];
}

/** What the model needs of dimension table `d` joined on `key`: its attributes, their parents, and FX. */
async function readDimension(d, key) {
  const attrs = d.columns.filter((c) => c.name !== key && isText(c.type)).map((c) => c.name);
  const rate = /^(currency|ccy)$/i.test(key) && d.columns.find((c) => isNumeric(c.type) && /^rate/i.test(c.name));
  const currencies = rate
    ? query("SELECT " + ident(key) + " FROM " + ident(d.name) + " ORDER BY " + ident(key))
      .then((a) => a.rows.map((r) => r[0]), () => null)
    : null;
  const { parent, count } = await parents(d.name, attrs).catch(() => ({ parent: new Map(), count: new Map() }));
  return { d, key, attrs, parent, count, fx: rate && { rate: rate.name, currencies: await currencies } };
}

function addDimension(model, { d, key, attrs, parent, count, fx }) {
  model.dims.set(d.name, { key });
  const field = (name) => d.name + "." + name;
  for (const name of [key, ...attrs]) {
    const c = d.columns.find((x) => x.name === name);
    model.fields.set(field(name), { id: field(name), dim: d.name, column: name, type: c.type });
  }
  const ancestors = (a) => parent.has(a) ? [...ancestors(parent.get(a)), parent.get(a)] : [];
  const keyParent = attrs.length ? [...attrs].sort((x, y) => count.get(y) - count.get(x))[0] : null;
  const main = keyParent ? [...ancestors(keyParent), keyParent, key] : [key];
  model.hierarchies.push(main.map(field));
  for (const a of attrs.filter((x) => !main.includes(x))) model.hierarchies.push([...ancestors(a), a, key].map(field));
  if (fx && fx.currencies && !model.fx) model.fx = { table: d.name, key, rate: fx.rate, currencies: fx.currencies };
}

/**
 * Each attribute's parent (the finest attribute with fewer values that it determines), with distinct counts; none
 * for a dimension of more than MAX_HIERARCHY_ATTRIBUTES attributes (a query per pair would be too many).
 */
async function parents(table, attrs) {
  const parent = new Map();
  const count = new Map();
  if (!attrs.length || attrs.length > MAX_HIERARCHY_ATTRIBUTES) return { parent, count };
  const a = await query("SELECT " + attrs.map((x) => "COUNT(DISTINCT " + ident(x) + ")").join(", ") + " FROM "
    + ident(table));
  attrs.forEach((x, i) => count.set(x, a.rows[0][i]));
  const pairs = [];
  for (const fine of attrs) {
    for (const coarse of attrs) if (count.get(coarse) < count.get(fine)) pairs.push([coarse, fine]);
  }
  const sizes = await Promise.all(pairs.map(([coarse, fine]) => query("SELECT COUNT(*) FROM (SELECT "
    + ident(coarse) + ", " + ident(fine) + " FROM " + ident(table) + " GROUP BY " + ident(coarse) + ", "
    + ident(fine) + ") t")));
  pairs.forEach(([coarse, fine], i) => {
    if (sizes[i].rows[0][0] !== count.get(fine)) return;
    const now = parent.get(fine);
    if (now === undefined || count.get(coarse) > count.get(now)) parent.set(fine, coarse);
  });
  return { parent, count };
}

// The pivot page of `numacube serve`. The engine computes every number: the page builds SQL from the view
// (sql.js), posts it to POST /v1/query, and lays the answers out as a grid (grid.js, Tabulator) and a chart
// (chart.js, ECharts). Totals are queries of their own (GROUP BY the rows only, the columns only, nothing), so AVG
// and COUNT DISTINCT totals are right. The fields, hierarchies and currencies come from model.js; the view lives
// in the URL's fragment (view.js). Live: the server pushes the table's version as server-sent events
// (GET /v1/tables/NAME/events) and the pivot is re-queried when it changed.
import { QueryError, getJson, parseJson, query, statements } from "./sql.js";
import { buildModel } from "./model.js";
import { defaults, fromUrl, tableInUrl, toUrl } from "./view.js";
import { Controls } from "./controls.js";
import { Grid, gridData, keyOf, pivot } from "./grid.js";
import { drawChart } from "./chart.js";
import { DrillThrough } from "./drill.js";
import { showError, showStats } from "./status.js";

const MAX_COLUMNS = 500;   // more column members than this: refused, put the column on rows or filter it
const $ = (id) => document.getElementById(id);

let tables = [];          // GET /v1/tables
let model = null;         // the model of view.table
let view = null;          // what the user chose (view.js)
let shown = null;         // {view, src, p}: what the grid shows, for drill-through
let shownVersion = null;  // the table version the pivot shows
let running = null;       // the refresh in flight, or null
let again = false;        // a refresh was asked for while one ran
const timings = [];       // {what, ms}: interaction to painted, read by tools/pivot-check
window.numacubeTimings = timings;

const controls = new Controls(() => ({ view, model }), change);
const drill = new DrillThrough(showError);
const grid = new Grid($("grid"), drillThrough);

function measureLabel(v) {
  const m = v.agg === "COUNT DISTINCT" ? "COUNT(DISTINCT " + v.measure + ")" : v.agg + "(" + v.measure + ")";
  return v.ccy && model.fx && ["SUM", "AVG", "MIN", "MAX"].includes(v.agg) ? m + " in " + v.ccy : m;
}

/** Applies a change to the view, then shows it: URL, controls, the pivot. */
function change(what, mutate) {
  const rows = keyOf(view.rows);
  const open = keyOf(view.open);
  const cols = keyOf(view.cols);
  const openCols = keyOf(view.openCols);
  mutate(view);
  // opened members belong to the rows (columns) they were opened under
  if (keyOf(view.rows) !== rows && keyOf(view.open) === open) view.open = [];
  if (keyOf(view.cols) !== cols && keyOf(view.openCols) === openCols) view.openCols = [];
  for (const id of Object.keys(view.filters)) view.filters[id] = view.filters[id].filter((v) => v !== "");
  listen();
  const hash = toUrl(view);
  if (location.hash !== hash) history.replaceState(null, "", hash);
  controls.draw(tables);
  refresh(what);
}

async function useTable(name, fromLink) {
  document.body.dataset.state = "loading";
  drill.close();
  const started = performance.now();
  model = await buildModel(tables, name);
  timings.push({ what: "model of " + name + " (dimensions, hierarchies, FX read from the data)",
    ms: performance.now() - started });
  view = (fromLink && fromUrl(model)) || defaults(model);
  shownVersion = null;
  change(fromLink ? "open" : "table", () => {});
}

// A click on a member's toggle, in a row or a column header, opens or closes it (closing closes what was opened under
// it).
function wireToggles() {
  $("grid").addEventListener("click", (e) => {
    const t = e.target.closest("button.toggle");
    if (!t) return;
    e.stopPropagation();
    const header = t.closest("[data-col-path]");
    const axis = header ? "openCols" : "open";
    const path = parseJson(header ? header.dataset.colPath : t.closest("[data-path]").dataset.path);
    const key = keyOf(path);
    const isOpen = view[axis].some((p) => keyOf(p) === key);
    change((isOpen ? "collapse " : "expand ") + path.at(-1), (v) => {
      v[axis] = isOpen ? v[axis].filter((p) => keyOf(p.slice(0, path.length)) !== key) : v[axis].concat([path]);
    });
  });
}

/** Shows the fact rows of a clicked cell: its row path's members and its column's. */
function drillThrough(row, field) {
  if (!shown) return;
  const { view: v, src, p } = shown;
  const members = [];
  if (row._path) {
    const ids = v.rows.concat(p.levels.slice(0, row._path.length - v.rows.length));
    row._path.forEach((value, i) => members.push([ids[i], value]));
  }
  const colIds = v.cols.concat(p.colLevels);
  if (field !== "total") p.columns[Number(field.slice(1))].forEach((value, i) => members.push([colIds[i], value]));
  const title = members.length ? members.map(([id, value]) => id + " = " + value).join(", ") : "all rows";
  drill.show(v, src, members, title);
}

/** Queries the view and paints it; a refresh asked for while one runs runs once after it. */
function refresh(what) {
  if (running) { again = what; return running; }
  running = paint(what).finally(() => {
    running = null;
    if (again) { const w = again; again = false; refresh(w); }
  });
  return running;
}

async function paint(what) {
  const started = performance.now();
  const v = structuredClone(view);
  document.body.dataset.state = "loading";
  const { q, src } = statements(v, model);
  $("sql").textContent = Object.values(q).join(";\n") + ";";
  try {
    const names = Object.keys(q);
    const got = await Promise.all(names.map((n) => query(q[n])));
    const answers = Object.fromEntries(names.map((n, i) => [n, got[i]]));
    const versions = [...new Set(got.map((a) => a.stats && a.stats.version))];
    if (JSON.stringify(v) !== JSON.stringify(view)) return;  // the user changed the view meanwhile
    const p = pivot(v, model, answers);
    if (p.columns.length > MAX_COLUMNS) {
      throw new QueryError({ message: "too many column members: " + p.columns.length + " (at most " + MAX_COLUMNS
        + ") — put " + v.cols.join(", ") + " on rows, or filter it" }, "", 0);
    }
    const { data, columns } = gridData(p, v, measureLabel(v));
    $("error").hidden = true;
    await grid.draw(data, columns);
    shown = { view: v, src, p };
    drawChart($("chart"), p, v.chart, measureLabel(v));
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
}

// Live: the server pushes the table's version (GET /v1/tables/NAME/events, server-sent events); a new one
// re-queries the view. EventSource reconnects on its own after a network error; the first version after one always
// re-queries: a server started again (data in memory only) numbers its versions from 1 again, so an equal version
// may be other data.
let events = null;
let eventsTable = null;
let lost = false;   // the stream broke since the last version event

function listen() {
  if (eventsTable === view.table) return;
  if (events) events.close();
  eventsTable = view.table;
  lost = false;
  events = new EventSource("v1/tables/" + encodeURIComponent(view.table) + "/events");
  events.addEventListener("version", (e) => {
    const version = JSON.parse(e.data).version;
    $("live").classList.remove("stale");
    if (version === shownVersion) $("live").textContent = "version " + version + " · live";
    const reconnected = lost;
    lost = false;
    if (shownVersion !== null && (version !== shownVersion || reconnected)) {
      $("live").classList.add("stale");
      refresh((reconnected ? "live: reconnected, version " : "live: version ") + version);
    }
  });
  events.addEventListener("error", () => {
    lost = true;
    $("live").textContent = "reconnecting…";
    $("live").classList.add("stale");
  });
}

async function start() {
  try {
    tables = (await getJson("v1/tables")).tables;
    if (!tables.length) {
      $("stats").textContent = "the server has no tables";
      return;
    }
    const linked = tableInUrl();
    const fromLink = tables.some((t) => t.name === linked);
    await useTable(fromLink ? linked : (tables.some((t) => t.name === "trades") ? "trades" : tables[0].name), fromLink);
  } catch (e) {
    showError(e);
    return;
  }
  controls.wire((name) => useTable(name, false).catch(showError));
  wireToggles();
  window.addEventListener("hashchange", () => {
    const s = tableInUrl() === view.table ? fromUrl(model) : null;
    if (s && toUrl(s) !== toUrl(view)) change("link", (v) => Object.assign(v, s));
    else if (!s && tables.some((t) => t.name === tableInUrl())) useTable(tableInUrl(), true).catch(showError);
  });
}

start();

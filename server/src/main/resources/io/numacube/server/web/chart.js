// The chart of a pivot (ECharts): bars or lines (a series per column member, at most MAX_SERIES) over the row
// members, or a heat map of rows x columns (the cells the grid shows, totals aside). It draws the pivot's numbers
// as they are, for the first MAX_ROWS rows (a chart of more is unreadable, and slow to draw: the grid has them all).
// A member opened, on the rows or the columns, is drawn as its children, so that the bars of a tree add up to the
// total, as the grid's rows do. Tooltips are drawn on the canvas (renderMode richText): ECharts' HTML tooltips carry
// inline styles, which the page's Content-Security-Policy refuses.
import { columnTitle, keyOf, label } from "./grid.js";
import { Exact } from "./sql.js";

const MAX_SERIES = 24;
const MAX_ROWS = 200;
export const CHART_TYPES = ["bar", "line", "heatmap"];

let chart = null;

const leaves = (p) => p.rows.filter((path) => !p.open.has(keyOf(path)));
const leafColumns = (p) => p.columns.filter((ck) => !p.colOpen.has(keyOf(ck)));
const chartRows = (p) => p.nr ? leaves(p).slice(0, MAX_ROWS) : [[]];
const numberOf = (v) => typeof v === "number" || v instanceof Exact ? Number(v) : null;

function series(p, type, measure) {
  return leafColumns(p).slice(0, MAX_SERIES).map((ck) => ({
    name: p.nc ? columnTitle(ck, p.nc) : measure,
    type,
    data: chartRows(p).map((path) => {
      return numberOf(p.cells.get(keyOf(path) + "|" + keyOf(ck)));
    }),
  }));
}

function heatmap(p, categories, measure) {
  const data = [];
  let min = Infinity;
  let max = -Infinity;
  chartRows(p).forEach((path, i) => leafColumns(p).forEach((ck, j) => {
    const v = numberOf(p.cells.get(keyOf(path) + "|" + keyOf(ck)));
    if (v === null) return;
    data.push([j, i, v]);
    min = Math.min(min, v);
    max = Math.max(max, v);
  }));
  const columns = p.nc ? leafColumns(p).map((ck) => columnTitle(ck, p.nc)) : [measure];
  return {
    tooltip: { position: "top", renderMode: "richText" },
    grid: { left: 110, right: 20, top: 10, bottom: 90 },
    xAxis: { type: "category", data: columns, axisLabel: { rotate: columns.length > 12 ? 45 : 0 } },
    yAxis: { type: "category", data: categories, inverse: true },
    visualMap: { min: data.length ? min : 0, max: data.length ? max : 1, calculable: true, orient: "horizontal",
      left: "center", bottom: 0, inRange: { color: ["#c0392b", "#f7f7f7", "#1f7a3a"] } },
    series: [{ name: measure, type: "heatmap", data, progressive: 5000 }],
  };
}

/** Draws pivot `p` as a chart of `type` (one of CHART_TYPES) into `element`. */
export function drawChart(element, p, type, measure) {
  chart ||= echarts.init(element);
  const categories = p.nr ? chartRows(p).map((path) => path.map(label).join(" / ")) : ["all"];
  const cut = leaves(p).length > MAX_ROWS ? "the first " + MAX_ROWS + " of " + leaves(p).length + " rows" : "";
  const option = type === "heatmap" ? heatmap(p, categories, measure) : {
    tooltip: { trigger: "axis", renderMode: "richText" },
    legend: { type: "scroll", top: 0 },
    grid: { left: 70, right: 20, top: 30, bottom: 60 },
    xAxis: { type: "category", data: categories, axisLabel: { rotate: categories.length > 12 ? 45 : 0 } },
    yAxis: { type: "value" },
    series: series(p, type, measure),
  };
  const title = { text: cut, right: 10, top: 0, textStyle: { fontSize: 12, fontWeight: "normal" } };
  chart.setOption({ animation: false, title, ...option }, true);
  element.dataset.chart = type;
}

// The chart of a pivot (ECharts): bars or lines (a series per column member, at most MAX_SERIES) over the row
// members, or a heat map of rows x columns (every cell the grid shows, totals aside). It draws the pivot's numbers
// as they are.
import { keyOf, label } from "./grid.js";

const MAX_SERIES = 24;
export const CHART_TYPES = ["bar", "line", "heatmap"];

let chart = null;

function series(p, type, measure) {
  return p.columns.slice(0, MAX_SERIES).map((ck) => ({
    name: p.nc ? ck.map(label).join(" / ") : measure,
    type,
    data: (p.nr ? p.rows : [[]]).map((path) => {
      const v = p.cells.get(keyOf(path) + "|" + keyOf(ck));
      return typeof v === "number" ? v : null;
    }),
  }));
}

function heatmap(p, categories, measure) {
  const data = [];
  let min = Infinity;
  let max = -Infinity;
  (p.nr ? p.rows : [[]]).forEach((path, i) => p.columns.forEach((ck, j) => {
    const v = p.cells.get(keyOf(path) + "|" + keyOf(ck));
    if (typeof v !== "number") return;
    data.push([j, i, v]);
    min = Math.min(min, v);
    max = Math.max(max, v);
  }));
  const columns = p.nc ? p.columns.map((ck) => ck.map(label).join(" / ")) : [measure];
  return {
    tooltip: { position: "top" },
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
  const categories = p.nr ? p.rows.map((path) => path.map(label).join(" / ")) : ["all"];
  const option = type === "heatmap" ? heatmap(p, categories, measure) : {
    tooltip: { trigger: "axis" },
    legend: { type: "scroll", top: 0 },
    grid: { left: 70, right: 20, top: 30, bottom: 60 },
    xAxis: { type: "category", data: categories, axisLabel: { rotate: categories.length > 12 ? 45 : 0 } },
    yAxis: { type: "value" },
    series: series(p, type, measure),
  };
  chart.setOption({ animation: false, ...option }, true);
  element.dataset.chart = type;
}

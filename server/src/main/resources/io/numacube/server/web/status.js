// What the page says about a view: the server's error with a caret at its position, and the statistics of the
// answers shown (cells, server time, rows scanned, morsels at home, versions, time to painted).
import { MAX_CELLS } from "./sql.js";

const $ = (id) => document.getElementById(id);

export function showError(e) {
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

export function showStats(answers, versions, started) {
  const st = answers.cells.stats || {};
  const ms = Object.values(answers).reduce((sum, a) => sum + ((a.stats && a.stats.ms) || 0), 0);
  const names = Object.keys(answers);
  const cells = names.filter((n) => /^(cells|level\d+(col\d+)?|col\d+)$/.test(n)).map((n) => answers[n]);
  const rowLevels = names.filter((n) => /^level\d+$/.test(n)).length;
  const colLevels = names.filter((n) => /^col\d+$/.test(n)).length;
  const opened = [rowLevels && rowLevels + " on rows", colLevels && colLevels + " on columns"].filter(Boolean);
  const cut = cells.some((a) => a.row_count > MAX_CELLS);
  const n = names.length;
  const parts = [
    (cut ? "the first " + MAX_CELLS.toLocaleString("en-US") + " cells only (filter to see the rest)"
      : cells.reduce((n, a) => n + a.row_count, 0) + " cells"
        + (opened.length ? " (levels opened: " + opened.join(", ") + ")" : "")),
    "server " + (st.ms ?? 0).toFixed(1) + " ms" + (n > 1 ? " (" + ms.toFixed(1) + " ms for " + n + " queries with totals)" : ""),
    "rows scanned " + (st.rows_scanned ?? 0).toLocaleString("en-US"),
    "morsels " + (st.morsels ?? 0) + ", at home " + (st.morsels_home_pct ?? 0) + "%",
    "version " + versions.join("/"),
    "painted in " + Math.round(performance.now() - started) + " ms",
  ];
  $("stats").textContent = parts.join(" · ");
}

// Drill-through: the fact rows behind one cell of the pivot, a page of PAGE_ROWS at a time, and how many there are
// (COUNT(*) under the cell's filter: the view's filters and the cell's row and column members). Rows are in the
// order of the fact table's first column, so that pages do not overlap.
import { filterTerms, query } from "./sql.js";

export const PAGE_ROWS = 100;

const $ = (id) => document.getElementById(id);

/** The panel showing one cell's rows; `show` replaces what it shows. */
export class DrillThrough {
  constructor(onError) {
    this.onError = onError;
    this.cell = null;   // {src, where, title}
    this.page = 0;
    this.count = 0;
    this.asked = 0;   // loads asked for: only the last one paints
    $("drill-prev").addEventListener("click", () => this.load(this.page - 1));
    $("drill-next").addEventListener("click", () => this.load(this.page + 1));
    $("drill-close").addEventListener("click", () => this.close());
  }

  close() {
    $("drill").hidden = true;
    this.cell = null;
  }

  /** The rows of a cell: `members` are [field id, value] pairs, the cell's row and column members. */
  async show(view, src, members, title) {
    const terms = filterTerms(view, src).concat(members.map(([id, v]) => src.matches([id], [v])[0]));
    this.cell = { src, where: terms.length ? " WHERE " + terms.join(" AND ") : "", title };
    $("drill").hidden = false;
    $("drill-title").textContent = title;
    const counted = "SELECT COUNT(*) AS n" + src.from() + this.cell.where;
    await this.load(0, counted);
  }

  /** Shows page `page` of the cell's rows; with `counted`, the COUNT(*) to run beside it. */
  async load(page, counted = null) {
    if (!this.cell) return;
    const { src, where } = this.cell;
    const cols = src.model.columns.map((c) => src.column(c.name));
    const sql = "SELECT " + cols.join(", ") + src.from() + where + " ORDER BY " + cols[0]
      + " LIMIT " + PAGE_ROWS + " OFFSET " + page * PAGE_ROWS;
    const started = performance.now();
    const asked = ++this.asked;
    document.body.dataset.drill = "loading";
    $("drill-sql").textContent = (counted ? counted + ";\n" : "") + sql + ";";
    try {
      const [count, answer] = await Promise.all([counted && query(counted), query(sql)]);
      if (asked !== this.asked) return;   // another cell or page was asked for meanwhile
      if (count) this.count = count.rows[0][0];
      this.page = page;
      this.paint(answer, started);
    } catch (e) {
      this.onError(e);
      document.body.dataset.drill = "error";
    }
  }

  paint(answer, started) {
    const head = document.createElement("tr");
    head.append(...answer.columns.map((c) => Object.assign(document.createElement("th"), { textContent: c.name })));
    const body = answer.rows.map((r) => {
      const tr = document.createElement("tr");
      tr.append(...r.map((v) => Object.assign(document.createElement("td"), { textContent: v ?? "" })));
      return tr;
    });
    $("drill-rows").replaceChildren(head, ...body);
    const first = this.page * PAGE_ROWS;
    $("drill-count").textContent = this.count.toLocaleString("en-US") + " rows"
      + (answer.rows.length ? ", showing " + (first + 1) + "–" + (first + answer.rows.length) : "");
    $("drill-count").dataset.count = String(this.count);
    $("drill-prev").disabled = this.page === 0;
    $("drill-next").disabled = first + answer.rows.length >= this.count;
    (window.numacubeTimings || []).push({ what: "drill-through page " + (this.page + 1),
      ms: performance.now() - started });
    document.body.dataset.drill = "ready";
  }
}

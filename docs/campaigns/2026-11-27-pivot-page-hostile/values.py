"""Campaign 13: numbers the pivot page shows against the exact answer of the SQL it sent. usage: values.py HTTP_URL

For each view: every grid cell's data-value (what the page holds) and its text (what it shows) against the value of
the same query posted over HTTP and read exactly (Python's json with Decimal)."""
import sys
from playwright.sync_api import sync_playwright
from decimal import Decimal
from probe import CHROMIUM, link, open_view, post_sql, sent_sql

HTTP = sys.argv[1]
VIEWS = {
    "SUM(big) by name (2^53+1)": link(table="x", rows="dt", agg="SUM", measure="big"),
    "SUM(big) total only": link(table="x", rows="", agg="SUM", measure="big"),
    "SUM(d) DECIMAL(18,4) by dt": link(table="x", rows="dt", agg="SUM", measure="d"),
    "MAX(d) by dt": link(table="x", rows="dt", agg="MAX", measure="d"),
    "SUM(f) DOUBLE by dt": link(table="x", rows="dt", agg="SUM", measure="f"),
    "AVG(d) by dt": link(table="x", rows="dt", agg="AVG", measure="d"),
    "MIN(ts) by dt": link(table="x", rows="dt", agg="MIN", measure="ts"),
    "MIN(dt) by ts.year": link(table="x", rows="ts.year", agg="MIN", measure="dt"),
    "COUNT(allnull) by allnull": link(table="x", rows="allnull", agg="COUNT", measure="allnull"),
    "SUM(id) by allnull x name": link(table="x", rows="allnull", cols="ts.month", agg="SUM", measure="id"),
    "empty table": link(table="empty", rows="k", agg="SUM", measure="v"),
    "empty table, no rows": link(table="empty", rows="", agg="SUM", measure="n"),
    "empty table, AVG": link(table="empty", rows="", agg="AVG", measure="v"),
}


def exact_text(v):
    return "" if v is None else str(v)


with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    wrong = 0
    for what, h in VIEWS.items():
        console = []
        page, state = open_view(browser, HTTP, h, console)
        if state != "ready":
            print(f"{what}: state={state}: {page.inner_text('#error')[:200]}")
            page.close()
            continue
        shown = page.evaluate("""() => [...document.querySelectorAll('#grid .tabulator-row')].map(r =>
            [...r.querySelectorAll('.tabulator-cell')].map(c => [c.getAttribute('tabulator-field'),
              c.dataset.value ?? null, c.textContent]))""")
        sqls = sent_sql(page)
        answer = post_sql(HTTP, sqls[0])
        grand = post_sql(HTTP, sqls[-1]) if len(sqls) > 1 else answer
        exact = [exact_text(r[-1]) for r in answer.get("rows", [])]
        held = [c[1] for row in shown for c in row if c[0].startswith("c")]
        text = [c[2] for row in shown for c in row if c[0].startswith("c")]
        exact_type = answer["columns"][-1]["type"]

        def same_value(e, h_):
            try:
                return Decimal(e) == Decimal(h_)
            except Exception:  # noqa: BLE001
                return e == h_

        def shown_right(e, t):
            try:
                value, got = Decimal(e), Decimal(t.replace(",", ""))
            except Exception:  # noqa: BLE001
                return e == t
            if exact_type == "DOUBLE":   # two decimals, or the value as it is where two would show zero
                return abs(value - got) <= Decimal("0.005") * max(1, abs(value) / 10 ** 15)
            return value == got   # BIGINT, DECIMAL: every digit
        diffs = [(e, h_, t) for e, h_, t in zip(exact, held, text) if not same_value(e, h_) or not shown_right(e, t)]
        if diffs:
            wrong += 1
        print(f"{what}: {len(held)} cells; type {answer['columns'][-1]['type'] if 'columns' in answer else answer}; "
              f"held or shown != exact: {diffs[:4]}; shown: {list(zip(exact, text))[:5]}")
        page.close()
    browser.close()
print(f"values: {len(VIEWS)} views, {wrong} with a value held or shown that differs from the exact answer")

"""Campaign 13: column names that need quoting (a quote, a keyword, a space, non-ASCII, a leading digit, HTML) as
every field of the pivot: on rows, on columns, as the measure (COUNT), as a filter; compared with the same SQL over
HTTP. usage: names.py HTTP_URL (the server holds table `names`, mk'd by hand: see the report)"""
import sys

from playwright.sync_api import sync_playwright
from probe import CHROMIUM, INJECTED, link, open_view, post_sql, sent_sql

HTTP = sys.argv[1]
NAMES = ['a"b', "select", "x y", "ÄÖ", "1col", "<i>t</i>"]
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    bad = 0
    n = 0
    for r in NAMES:
        for c in NAMES:
            if c == r:
                continue
            for agg in ("COUNT", "COUNT DISTINCT"):
                n += 1
                console = []
                page, state = open_view(browser, HTTP, link(table="names", rows=r, cols=c, agg=agg, measure=r,
                                                            **{"f." + c: ["q", "r", "t", "s", "p"]}), console)
                err = page.inner_text("#error") if state != "ready" else ""
                answer = post_sql(HTTP, sent_sql(page)[0]) if state == "ready" else {}
                cells = page.eval_on_selector_all("#grid .tabulator-cell.cell", "cs => cs.length")
                found = page.evaluate(INJECTED) + page.evaluate("() => [...document.querySelectorAll('#grid i')].map(e => e.outerHTML)")
                ok = state == "ready" and "error" not in answer and not found
                bad += not ok
                if not ok:
                    print(f"rows={r!r} cols={c!r} {agg}: {state} {err[:150]!r} {found} {answer.get('error')}")
                page.close()
    browser.close()
print(f"names: {n} views over 6 names needing quotes, {bad} wrong")

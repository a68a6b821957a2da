"""Campaign 13: markup in table data, column names and errors, shown by the pivot page. usage: xss.py HTTP_URL"""
import re
import sys
from playwright.sync_api import sync_playwright
from probe import CHROMIUM, INJECTED, XSS_COL, link, open_view, wait

HTTP = sys.argv[1]
VIEWS = {
    "text member on rows": link(table="x", rows="name", cols="", agg="COUNT", measure="id"),
    "html column name on rows": link(table="x", rows=XSS_COL, cols="", agg="COUNT", measure="id"),
    "MIN of text": link(table="x", rows="dt", cols="", agg="MIN", measure="name"),
    "MAX of text, html column": link(table="x", rows="name", cols="", agg="MAX", measure=XSS_COL),
    "MIN of text, no rows": link(table="x", rows="", cols="", agg="MIN", measure="name"),
    "text member on columns": link(table="x", rows="dt", cols="name", agg="COUNT", measure="id"),
    "html column on columns": link(table="x", rows="name", cols=XSS_COL, agg="COUNT", measure="id"),
    "filter on text": link(table="x", rows="dt", cols="", agg="COUNT", measure="id", **{"f.name": "<b>x</b>"}),
    "heat map of text": link(table="x", rows="name", cols=XSS_COL, agg="COUNT", measure="id", chart="heatmap"),
    "line chart": link(table="x", rows="dt", cols="name", agg="COUNT", measure="id", chart="line"),
    "MIN of timestamp": link(table="x", rows="name", cols="", agg="MIN", measure="ts"),
}
total = 0
bad = 0
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    for what, h in VIEWS.items():
        console = []
        page, state = open_view(browser, HTTP, h, console)
        page.wait_for_timeout(300)
        before_hover = len([c for c in console if "Content Security Policy" in c])
        found = page.evaluate(INJECTED)
        # hover the chart's middle: tooltips are HTML too
        try:
            page.hover("#chart", timeout=2000)
            box = page.locator("#chart").bounding_box()
            for fx in (0.2, 0.4, 0.5, 0.6, 0.8):
                page.mouse.move(box["x"] + box["width"] * fx, box["y"] + box["height"] * 0.5)
                page.wait_for_timeout(150)
        except Exception as e:  # noqa: BLE001
            console.append("hover: " + str(e)[:80])
        if "filter" in what:
            page.wait_for_timeout(1500)
        try:
            found += [x + " (after hovering)" for x in page.evaluate(INJECTED) if x not in found]
            tip = page.evaluate("() => [...document.querySelectorAll('#chart div')].filter(d => d.style.position === 'absolute' && d.innerHTML.includes('<')).map(d => d.innerHTML.slice(0, 300))")
        except Exception as e:  # noqa: BLE001
            found.append("the page navigated away: " + page.url)
            tip = []
        if tip:
            print("   tooltip:", tip[0][:300])
        csp = [c for c in console if "Content Security Policy" in c or "Refused" in c]
        kinds = sorted({re.sub(r".*violates|Either.*", "", c)[:60] for c in csp})
        print(f"   csp before hover {before_hover}, after {len(csp)}: {kinds}")
        total += 1
        verdict = "INJECTED" if found else "clean"
        bad += verdict != "clean"
        print(f"{what}: state={state} {verdict} {found[:6]} ")
        page.close()
    browser.close()
print(f"xss: {total} views, {bad} with markup from the data")

"""Campaign 13: deep links with hostile parameters. usage: urlstate.py HTTP_URL

Each link is opened in a fresh page; printed: the state the page reached (ready / error / still loading after 30 s),
the error it shows, markup from the link made into elements, and console errors."""
import json
import sys
import urllib.parse

from playwright.sync_api import sync_playwright
from probe import CHROMIUM, INJECTED, XSS_COL

HTTP = sys.argv[1]
q = lambda s: urllib.parse.quote(s, safe="")  # noqa: E731
LINKS = {
    "unknown table": "#table=" + q("<script>x</script>"),
    "rows twice": "#table=x&rows=name,name,name&agg=COUNT&measure=id",
    "rows and cols the same": "#table=x&rows=name&cols=name&agg=COUNT&measure=id",
    "top 10^20": "#table=x&rows=name&agg=SUM&measure=id&sort=desc&top=99999999999999999999",
    "top -5": "#table=x&rows=name&agg=SUM&measure=id&top=-5",
    "top 1e3": "#table=x&rows=name&agg=SUM&measure=id&top=1e3",
    "range 1e400": "#table=x&rows=name&agg=SUM&measure=id&r.d=1e400..",
    "range -0..0": "#table=x&rows=dt&agg=SUM&measure=id&r.f=-0..0",
    "range not a date": "#table=x&rows=name&agg=COUNT&measure=id&r.dt=" + q("x' OR 1=1 --..2024-01-01"),
    "range lo > hi": "#table=x&rows=name&agg=COUNT&measure=id&r.id=10..2",
    "range on text column": "#table=x&rows=dt&agg=COUNT&measure=id&r.name=a..b",
    "filter injection": "#table=x&rows=dt&agg=COUNT&measure=id&f.name=" + q("' OR 1=1 --"),
    "filter on unknown field": "#table=x&rows=dt&agg=COUNT&measure=id&f.nosuch=a",
    "filter on html column": "#table=x&rows=dt&agg=COUNT&measure=id&f." + q(XSS_COL) + "=" + q("<b>"),
    "measure html column, SUM": "#table=x&rows=dt&agg=SUM&measure=" + q(XSS_COL),
    "agg lowercase": "#table=x&rows=dt&agg=sum&measure=id",
    "open not JSON": "#table=x&rows=ts.year&agg=COUNT&measure=id&open=" + q("[2024"),
    "open object": "#table=x&rows=ts.year&agg=COUNT&measure=id&open=" + q('{"a":1}'),
    "open deep": "#table=x&rows=ts.year&agg=COUNT&measure=id&open=" + q(json.dumps([2024] * 5000)),
    "open 2000 paths": "#table=x&rows=ts.year&agg=COUNT&measure=id&" + "&".join(
        "open=" + q(json.dumps([y])) for y in range(2000)),
    "open with html": "#table=x&rows=ts.year&agg=COUNT&measure=id&open=" + q(json.dumps(["<img src=x>"])),
    "ocol nested": "#table=x&rows=dt&cols=ts.year&agg=COUNT&measure=id&ocol=" + q("[[[[1]]]]"),
    "ccy unknown": "#table=x&rows=dt&agg=SUM&measure=id&ccy=" + q("EUR' --"),
    "chart unknown": "#table=x&rows=dt&agg=SUM&measure=id&chart=pie",
    "3000 members on columns": "#table=wide&rows=grp&cols=member&agg=SUM&measure=m0",
    "3000 members on rows, heat map": "#table=wide&rows=member&cols=grp&agg=SUM&measure=m0&chart=heatmap",
    "empty table, cols": "#table=empty&rows=k&cols=k&agg=AVG&measure=v",
    "all-NULL column on columns": "#table=x&rows=dt&cols=allnull&agg=SUM&measure=d",
    "1 MB fragment": "#table=x&rows=dt&agg=COUNT&measure=id&f.name=" + "a" * 1_000_000,
    "unicode field names": "#table=x&rows=" + q("name\u0000") + "&agg=COUNT&measure=id",
}
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    counts = {}
    for what, h in LINKS.items():
        console = []
        page = browser.new_page()
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: console.append("pageerror: " + str(e)))
        page.goto(HTTP + "/" + h)
        try:
            page.wait_for_selector("body[data-state=ready], body[data-state=error]", state="attached", timeout=30000)
            state = page.evaluate("document.body.dataset.state")
        except Exception:  # noqa: BLE001
            state = "STUCK (loading after 30 s)"
        err = page.evaluate("document.getElementById('error').hidden ? '' : document.getElementById('error').textContent")
        found = page.evaluate(INJECTED)
        stats = page.inner_text("#stats")[:90]
        counts[state.split()[0]] = counts.get(state.split()[0], 0) + 1
        print(f"{what}: {state} {'INJECTED ' + str(found) if found else ''} err={err[:160]!r} stats={stats!r} "
              f"console={[c[:100] for c in console[:2]]}")
        page.close()
    browser.close()
print(f"urlstate: {len(LINKS)} links: {counts}")

"""The pivot page against hostile data (run by tools/pivot-check after pivot-check-server.py).

usage: pivot-check-hostile.py OUT_DIR CHROMIUM

Starts `numacube serve` of its own on a table written here (campaign 13, docs/campaigns/2026-11-27-pivot-page-
hostile.md): text values and a column *name* that are HTML (`<img src=x onerror=...>`, `<meta http-equiv=refresh>`,
`<a>`, `<b>`), a 10,000-character member, a BIGINT beyond 2^53 and a DECIMAL(18,4) of 18 digits. Checks:

1. markup from the data is shown as text, never made into elements: the column name as a row field's header, text
   members on rows and columns, MIN and MAX of a text column as cells, the bars' and heat map's tooltips (hovered);
   the header's and the cells' text is the data's, character for character;
2. every BIGINT and DECIMAL cell holds (data-value) and shows (its text, thousands grouped) the exact value of the
   same SQL posted over HTTP and read as decimals: 9,007,199,254,740,993, not ...992; -99,999,999,999,999.9999, not
   -100,000,000,000,000.00; a DECIMAL(18,4)'s 0.0049 with its four decimals, not 0.00;
3. a 10,000-character member leaves the value columns in view;
4. columns named group, date and order (words of SQL) pivot as the same SQL answers; a link's filter on a number
   and a top of 10^20 are dropped or capped, not an error;
5. the server stopped and started again on its port with other data (versions numbered from 1 again): the open page
   shows the new answer without a reload, once its events reconnect;
6. no Content-Security-Policy violation or other console error (ECharts' HTML tooltips carried inline styles).
Exits 1 with a FAILED line on the first failed check.
"""

import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from decimal import Decimal

from playwright.sync_api import sync_playwright

PROG = "pivot-check-hostile"
OUT_DIR, CHROMIUM = sys.argv[1], sys.argv[2]
COLUMN = '<img src=x onerror="document.body.dataset.xss=\'column\'">'
TEXTS = [
    '<img src=x onerror="document.body.dataset.xss=\'value\'">',
    '<b id="injected-b">bold</b>',
    '<a id="injected-a" href="https://evil.example/">click</a>',
    '<meta http-equiv="refresh" content="1;url=/v1/health">',
    '</script><script>document.body.dataset.xss="script"</script>',
    '"double" & \'single\' &amp;',
    "x" * 10000,
    "plain",
]
BIG = ["9007199254740993", "1", "-9007199254740993", "9007199254740993", "2", "3", "4", "5"]
DEC = ["99999999999999.9999", "0.0049", "-99999999999999.9999", "0.0001", "1.0000", "0.0050", "2.5000", "-0.0049"]
INJECTED = """() => [...document.querySelectorAll(
    'img[src="x"], b#injected-b, a#injected-a, meta[http-equiv], script:not([src])')]
    .map(e => e.outerHTML.slice(0, 80)).concat(document.body.dataset.xss ? ['ran'] : [])"""


def fail(message):
    print(f"{PROG}: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def write_table(folder, copies):
    path = os.path.join(folder, "h.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "group", "name", COLUMN, "big", "d", "date", "order"])
        for _ in range(copies):
            for i, text in enumerate(TEXTS):
                w.writerow([i + 1, "g" + str(i % 3), text, TEXTS[(i + 1) % len(TEXTS)], BIG[i], DEC[i],
                            f"202{i % 2}-0{i % 3 + 1}-15", 10 * i])
    return path


class HostileServer:
    """`numacube serve` of one hostile table `h` (its rows `copies` times), on free ports or HTTP port `port`."""

    def __init__(self, copies=1, port="0"):
        folder = tempfile.mkdtemp(prefix="pivot-check-hostile-")
        table = write_table(folder, copies)
        self.out = open(os.path.join(OUT_DIR, f"serve-hostile-{copies}.stdout"), "w+")
        self.err = open(os.path.join(OUT_DIR, f"serve-hostile-{copies}.stderr"), "w")
        self.process = subprocess.Popen(
            ["./numacube", "serve", "--table", "h=" + table, "--types", "h.d=DECIMAL(18,4)", "--http-port", port,
             "--pg-port", "0", "--warm-up", "0"], stdout=self.out, stderr=self.err,
            env=dict(os.environ, NUMACUBE_NO_BUILD="1"))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            self.out.seek(0)
            m = re.match(r"numacube ready (http://127\.0\.0\.1:\d+) ", self.out.readline())
            if m:
                self.url = m.group(1)
                return
            if self.process.poll() is not None:
                fail(f"serve exited {self.process.returncode} before it was ready (see {OUT_DIR})")
            time.sleep(0.2)
        fail("serve not ready in 120 s")

    def sql(self, statement):
        req = urllib.request.Request(self.url + "/v1/query", data=statement.encode(),
                                     headers={"Content-Type": "text/plain"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read(), parse_float=Decimal)

    def stop(self):
        self.process.terminate()
        if self.process.wait(timeout=30) != 0:
            fail(f"after SIGTERM serve exited {self.process.returncode}, expected 0")


def link(**view):
    return "#" + urllib.parse.urlencode(view, quote_via=urllib.parse.quote)


def show(page, url, what, **view):
    page.goto(url + "/" + link(**{"table": "h", "cols": "", **view}))
    page.wait_for_selector("body[data-state=ready], body[data-state=error]", state="attached", timeout=30000)
    if page.evaluate("document.body.dataset.state") != "ready":
        fail(f"{what}: the page shows an error: {page.inner_text('#error')}")


def no_markup(page, what):
    found = page.evaluate(INJECTED)
    if found:
        fail(f"{what}: markup from the data became elements of the page: {found[:3]}")


def value_texts(page):
    return page.eval_on_selector_all("#grid .tabulator-cell.cell", "cs => cs.map(c => c.textContent)")


def hover_chart(page):
    box = page.locator("#chart").bounding_box()
    for fx in (0.2, 0.35, 0.5, 0.65, 0.8):
        page.mouse.move(box["x"] + box["width"] * fx, box["y"] + box["height"] * 0.5)
        page.wait_for_timeout(100)


def check_markup(page, url):
    show(page, url, "a column named as HTML on rows", rows=COLUMN, agg="COUNT", measure="id")
    header = page.eval_on_selector("#grid .tabulator-col[tabulator-field=r0] .tabulator-col-title",
                                   "t => t.textContent")
    if header != COLUMN:
        fail(f"a row field's header shows {header[:80]!r}, not the column's name {COLUMN!r}")
    members = page.eval_on_selector_all("#grid .tabulator-cell[data-path]", "cs => cs.map(c => c.dataset.member)")
    if sorted(members) != sorted(TEXTS):
        fail(f"the members on rows are not the data's texts: {[m[:40] for m in members]}")
    hover_chart(page)
    no_markup(page, "column name and members on rows, bars hovered")
    for agg in ("MIN", "MAX"):
        show(page, url, f"{agg} of a text column", rows="id", agg=agg, measure="name")
        texts = value_texts(page)
        if sorted(texts[:-1]) != sorted(TEXTS):
            fail(f"{agg}(name) by id shows {[t[:40] for t in texts]}, not the texts as they are")
        no_markup(page, f"{agg} of a text column")
    show(page, url, "text members on columns, heat map", rows="group", agg="COUNT", measure="id", chart="heatmap")
    page.wait_for_timeout(200)
    hover_chart(page)
    no_markup(page, "text members on columns, heat map hovered")
    page.wait_for_timeout(1500)   # a <meta http-equiv=refresh> made from the data would have navigated by now
    no_markup(page, "text members on columns, a while later")
    print(f"{PROG}: HTML in a column name, in members on rows and columns, in MIN/MAX cells and in the charts' "
          "tooltips is shown as text")


def grouped(exact):
    sign, whole, fraction = re.match(r"(-?)(\d+)(\.\d+)?$", exact).groups()
    return sign + f"{int(whole):,}" + (fraction or "")


def check_values(page, server):
    for measure, agg in (("big", "SUM"), ("d", "SUM"), ("d", "MAX")):
        show(page, server.url, f"{agg}({measure})", rows="id", agg=agg, measure=measure)
        sql = page.evaluate("document.getElementById('sql').textContent").split(";\n")[0]
        want = [str(r[-1]) for r in server.sql(sql)["rows"]]
        held = page.eval_on_selector_all("#grid .tabulator-cell.cell", "cs => cs.map(c => c.dataset.value)")[:-1]
        texts = value_texts(page)[:-1]
        if [Decimal(h) for h in held] != [Decimal(w) for w in want]:
            fail(f"{agg}({measure}) by id: the page holds {held}, the exact answer is {want}")
        if texts != [grouped(w) for w in want]:
            fail(f"{agg}({measure}) by id: the page shows {texts}, not the exact {[grouped(w) for w in want]}")
    print(f"{PROG}: BIGINT beyond 2^53 and DECIMAL(18,4) cells hold and show the exact answer, every digit")


def check_long_member(page, url):
    page.set_viewport_size({"width": 1500, "height": 1000})
    show(page, url, "a 10,000-character member", rows="name", agg="SUM", measure="big")
    box = page.locator("#grid").bounding_box()
    cell = page.locator("#grid .tabulator-cell[tabulator-field=c0]").first.bounding_box()
    if cell is None or cell["x"] + cell["width"] > box["x"] + box["width"]:
        fail(f"with a 10,000-character member the values are out of the grid's view: {cell} in {box}")
    print(f"{PROG}: a 10,000-character member leaves the values in view")


def check_keyword_names(page, server):
    """Columns named group, date and order (words of SQL) on rows, columns, as the measure and a filter: each cell
    equals the same SQL over HTTP; a link with a filter on a number or a top beyond 2^63 still shows a view."""
    show(page, server.url, "columns named group, date, order", rows="group", cols="date.year", agg="SUM",
         measure="order", **{"f.group": "g1"})
    want = server.sql('SELECT "group", year("date"), SUM("order") FROM h WHERE "group" = \'g1\' '
                      'GROUP BY 1, 2 ORDER BY 1, 2')["rows"]
    held = page.eval_on_selector_all("#grid .tabulator-row:not(.total) .tabulator-cell.cell:not(.total)",
                                      "cs => cs.map(c => c.dataset.value)")
    if sorted(Decimal(h) for h in held if h) != sorted(Decimal(r[2]) for r in want):
        fail(f"group x date.year SUM(order), group g1: the page holds {held}, the SQL answers {want}")
    for what, view in (("a filter on a number", {"f.order": "q"}), ("top 10^20", {"top": "99999999999999999999"})):
        show(page, server.url, "a link with " + what, rows="group", agg="SUM", measure="order", **view)
    print(f"{PROG}: columns named group, date and order pivot as the SQL answers; links with a filter on a number"
          " or a top of 10^20 show a view")


def check_restart(page, server):
    """The server stopped and another started on its port with other data (each row twice), at version 1 as well:
    the open page shows the new count once its events reconnect, without a reload. Returns the new server."""
    show(page, server.url, "COUNT(*) alone", rows="", agg="COUNT", measure="id")
    before = value_texts(page)
    server.stop()
    started = time.monotonic()
    again = HostileServer(copies=2, port=server.url.rsplit(":", 1)[1])
    deadline = time.monotonic() + 30
    while value_texts(page)[:1] != ["16"] or page.evaluate("document.body.dataset.state") != "ready":
        if time.monotonic() > deadline:
            shown, live = value_texts(page), page.inner_text("#live")
            again.stop()
            fail(f"after the server restarted with each row twice the open page still shows {shown}"
                 f" (before: {before}) and says '{live}'")
        time.sleep(0.2)
    print(f"{PROG}: a server started again on the port with other data at the same version: the open page shows"
          f" its count (8 -> 16) {time.monotonic() - started:.1f} s after the stop, without a reload")
    return again


def main():
    server = HostileServer()
    errors = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "ERR_CONNECTION_REFUSED"
                    not in m.text else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            check_markup(page, server.url)
            check_values(page, server)
            check_long_member(page, server.url)
            check_keyword_names(page, server)
            server = check_restart(page, server)
            browser.close()
    finally:
        server.stop()
    if errors:
        fail(f"the browser console has errors (a Content-Security-Policy violation is one): {errors[:3]}")
    print(f"{PROG}: OK")


main()

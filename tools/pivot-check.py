"""The pivot page in a real browser (run by tools/pivot-check; headless Debian Chromium driven by Playwright).

usage: pivot-check.py HTTP_URL SCREENSHOT

Builds desk x currency SUM(pnl) with the page's controls, compares every cell and total the page shows with the same
SQL posted over HTTP, opens the view's link in a new page (the same cells), shows a server error with its position,
appends a batch over HTTP and waits for the cells to change without a reload. Then, each compared with SQL of its
own over HTTP: books.region (a dimension attribute) on rows, EMEA expanded to its desks and a desk to its next level,
a year to its months; drill-through of a cell (its COUNT(*) and two pages of rows) and of the grand total;
desk x currency SUM(pnl) in EUR; sorted by the measure with top 5; ranges on pnl and trade_date; line and heat-map
charts; books.region on columns with EMEA opened in place to its desks, then also 2025 opened on rows to its months
(each crossing checked) and the view's link reopening both; a 130,000-cell view (counterparty x month) scrolled to its
last row. Saves a screenshot of a region opened, in EUR, with a cell's rows, opened from a link. Timings of
interactions are printed, never asserted. Exits 1 with a FAILED line on the first failed check.
"""

import json
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

PROG = "pivot-check"
HTTP, SCREENSHOT = sys.argv[1], sys.argv[2]
LIVE_WAIT_S = 5


def fail(message):
    print(f"{PROG}: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def post(path, body, content_type):
    req = urllib.request.Request(HTTP + path, data=body.encode(), headers={"Content-Type": content_type})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def sql(statement):
    return post("/v1/query", statement, "text/plain")


def wait_ready(page, what):
    """Waits for the page to have painted the view asked for; returns the milliseconds it took."""
    started = time.monotonic()
    # selectors, not wait_for_function: that evaluates a string, which the page's CSP (no unsafe-eval) refuses
    page.wait_for_selector("body[data-state=ready], body[data-state=error]", state="attached", timeout=30000)
    if page.evaluate("document.body.dataset.state") == "error":
        fail(f"{what}: the page shows an error: {page.inner_text('#error')}")
    return (time.monotonic() - started) * 1000


def act(page, what, action):
    started = time.monotonic()
    action()
    wait_ready(page, what)
    print(f"{PROG}: timing: {what}: {(time.monotonic() - started) * 1000:.0f} ms to painted")


def grid(page):
    """The grid as painted: [row path, column title, data-value, text] over every rendered value cell. A row's path
    is the JSON of its members (the tree cell's data-path), or its first cell's text (the Total row)."""
    return page.evaluate("""() => {
      const titles = {};
      for (const c of document.querySelectorAll('#grid .tabulator-col[tabulator-field]')) {
        const t = c.querySelector('.tabulator-col-title');
        const member = t.querySelector('[data-title]');   // a column member's header, without its toggle
        titles[c.getAttribute('tabulator-field')] = member ? member.dataset.title : t.textContent.trim();
      }
      const cells = [];
      for (const row of document.querySelectorAll('#grid .tabulator-row')) {
        const tree = row.querySelector('.tabulator-cell[data-path]');
        const head = row.querySelector('.tabulator-cell[tabulator-field="r0"]');
        const path = tree ? tree.dataset.path : JSON.stringify([head ? head.textContent.trim() : '']);
        for (const cell of row.querySelectorAll('.tabulator-cell[tabulator-field]')) {
          const field = cell.getAttribute('tabulator-field');
          if (field.startsWith('r')) continue;
          cells.push([path, titles[field], cell.dataset.value, cell.textContent.trim()]);
        }
      }
      return cells;
    }""")


def label(v):
    return "(null)" if v is None else str(v)


def pivot_want(rows, cols, measure, source="FROM trades", where="", children=False):
    """{(row path, column title): value} of a pivot, from SQL of its own: rows and cols are SQL expressions; with
    children, only the cells and row totals (the rows opened under a member)."""
    w = f" WHERE {where}" if where else ""
    n = len(rows)
    want = {}
    by = ", ".join(rows + cols)
    for r in sql(f"SELECT {by}, {measure} {source}{w} GROUP BY {by}")["rows"]:
        want[(tuple(r[:n]), " / ".join(label(v) for v in r[n:-1]))] = r[-1]
    if cols:
        for r in sql(f"SELECT {', '.join(rows)}, {measure} {source}{w} GROUP BY {', '.join(rows)}")["rows"]:
            want[(tuple(r[:n]), "Total")] = r[-1]
    if children:
        return want
    for r in sql(f"SELECT {', '.join(cols)}, {measure} {source}{w} GROUP BY {', '.join(cols)}")["rows"]:
        want[(("Total",), " / ".join(label(v) for v in r[:-1]))] = r[-1]
    want[(("Total",), "Total")] = sql(f"SELECT {measure} {source}{w}")["rows"][0][0]
    return want


def expected_cells(where=""):
    return pivot_want(["desk"], ["currency"], "SUM(pnl)", where=where.replace(" WHERE ", "", 1))


def compare(page, what, where="", want=None):
    want = expected_cells(where) if want is None else want
    got = {}
    for path, col, value, text in grid(page):
        row = tuple(json.loads(path))
        if not text and value:
            fail(f"{what}: cell ({row}, {col}) has a value {value} but shows nothing")
        got[(row, col)] = float(value) if value else None
    missing = sorted((k for k in want if k not in got), key=str)
    if missing:
        fail(f"{what}: {len(missing)} cells not painted, e.g. {missing[:3]} (painted {len(got)})")
    extra = sorted((k for k in got if k not in want and got[k] is not None), key=str)
    if extra:
        fail(f"{what}: cells painted that the SQL does not answer: {extra[:3]}")
    wrong = [(k, got[k], want[k]) for k in want if got[k] != want[k]]
    if wrong:
        fail(f"{what}: {len(wrong)} cells differ from POST /v1/query, e.g. (cell, page, http) {wrong[:3]}")
    return len(want)

BOOKS = "FROM trades LEFT JOIN books ON trades.book = books.book"
FX = "FROM trades LEFT JOIN fx ON trades.currency = fx.currency"


def chips(page, axis):
    return page.eval_on_selector_all(f"#{axis} .chip", "cs => cs.map(c => c.dataset.name)")


def set_axes(page, rows, cols):
    """Puts exactly these fields on rows and columns with the controls (the chips' x, then the add selects)."""
    axes = (("rows", rows, "#add-row"), ("cols", cols, "#add-col"))
    for axis, names, _ in axes:
        for name in chips(page, axis):
            if name not in names:
                act(page, f"remove {name}", lambda n=name, a=axis: page.click(f'#{a} .chip[data-name="{n}"] button'))
    for axis, names, adder in axes:
        for name in names:
            if name not in chips(page, axis):
                act(page, f"{name} on {axis}", lambda n=name, s=adder: page.select_option(s, n))
    if chips(page, "rows") != rows or chips(page, "cols") != cols:
        fail(f"the axes are {chips(page, 'rows')} x {chips(page, 'cols')}, not {rows} x {cols}")


def row_paths(page):
    """The row paths in the order painted (the Total row as ["Total"])."""
    return [json.loads(path) for path in page.evaluate("""() => [...document.querySelectorAll('#grid .tabulator-row')]
      .map(r => { const t = r.querySelector('.tabulator-cell[data-path]');
                  return t ? t.dataset.path : JSON.stringify([r.querySelector('.tabulator-cell').textContent.trim()]); })""")]


def toggle(page, path, what):
    selector = f"#grid .tabulator-cell[data-path='{json.dumps(path, separators=(',', ':'))}'] button.toggle"
    act(page, what, lambda: page.click(selector))


def tree_levels(page):
    """The levels the tree column drills through, from its title (books.region › books.desk › ...)."""
    title = page.inner_text('#grid .tabulator-col[tabulator-field="r0"] .tabulator-col-title')
    return [x.strip() for x in title.split("›")]


def scroll_to_end(page):
    page.evaluate("() => { const h = document.querySelector('#grid .tabulator-tableholder'); h.scrollTop = h.scrollHeight; }")


def check_other_table(page):
    act(page, "table books", lambda: page.select_option("#table", "books"))
    scroll_to_end(page)
    page.wait_for_selector("#grid .tabulator-row.total", timeout=30000)
    total = [v for p, c, v, _ in grid(page) if json.loads(p) == ["Total"]]
    want = sql("SELECT COUNT(book) FROM books")["rows"][0][0]
    if chips(page, "rows") != ["book"] or total != [str(want)]:
        fail(f"the books table's default view is not COUNT(book) by book: rows {chips(page, 'rows')}, total {total}")
    act(page, "table trades", lambda: page.select_option("#table", "trades"))
    print(f"{PROG}: another table (books, no dimension of its own) shows its default view; back to trades")


def check_hierarchy(page):
    set_axes(page, ["books.region"], ["currency"])
    measure = "SUM(trades.pnl)"
    want = pivot_want(["books.region"], ["trades.currency"], measure, BOOKS)
    n = compare(page, "books.region x currency", want=want)
    print(f"{PROG}: a dimension attribute (books.region, through the join on book) on rows: {n} cells equal")
    toggle(page, ["EMEA"], "expand EMEA")
    levels = tree_levels(page)
    if levels[:2] != ["books.region", "books.desk"]:
        fail(f"region does not drill down to desk: the levels are {levels}")
    children = pivot_want(["books.region", "books.desk"], ["trades.currency"], measure, BOOKS,
                          "books.region = 'EMEA'", children=True)
    n = compare(page, "EMEA expanded", want={**want, **children})
    paths = row_paths(page)
    at = paths.index(["EMEA"])
    desks = sorted({k[0] for k in children})
    if [tuple(p) for p in paths[at + 1:at + 1 + len(desks)]] != desks:
        fail(f"EMEA's desks are not the rows under it: {paths[at:at + 4]}...")
    print(f"{PROG}: EMEA expanded in place to its {len(desks)} desks (levels {' > '.join(levels)}): {n} cells equal")
    bars = page.evaluate("() => echarts.getInstanceByDom(document.getElementById('chart')).getOption().xAxis[0].data")
    if "EMEA" in bars or f"EMEA / {desks[0][1]}" not in bars:
        fail(f"the chart does not draw EMEA as its desks: {bars}")
    desk = list(desks[0])
    toggle(page, desk, f"expand {desk[1]}")
    grand = pivot_want(levels[:3], ["trades.currency"], measure, BOOKS,
                       f"books.region = 'EMEA' AND books.desk = '{desk[1]}'", children=True)
    n = compare(page, f"{desk[1]} expanded", want={**want, **children, **grand})
    print(f"{PROG}: {desk[1]} expanded to its {len({k[0] for k in grand})} members of {levels[2]}: {n} cells equal")
    if "open=" not in page.url:
        fail(f"the URL does not hold the members opened: {page.url}")
    toggle(page, ["EMEA"], "collapse EMEA")
    compare(page, "EMEA collapsed", want=want)
    set_axes(page, ["trade_date.year"], ["currency"])
    toggle(page, [2025], "expand 2025")
    year = "year(trade_date)"
    month = "strftime(trade_date, '%Y-%m')"
    want = {**pivot_want([year], ["currency"], "SUM(pnl)"),
            **pivot_want([year, month], ["currency"], "SUM(pnl)", where=f"{year} = 2025", children=True)}
    n = compare(page, "2025 expanded to its months", want=want)
    print(f"{PROG}: a date's year expanded to its months in place: {n} cells equal")


def toggle_column(page, path, what):
    selector = f"#grid .tabulator-col [data-col-path='{json.dumps(path, separators=(',', ':'))}'] button.toggle"
    act(page, what, lambda: page.click(selector))


def column_titles(page):
    return page.evaluate("""() => [...document.querySelectorAll('#grid .tabulator-col[tabulator-field^="c"]')]
      .map(c => { const m = c.querySelector('[data-title]'); return m ? m.dataset.title : c.textContent.trim(); })""")


def emea_desks_want(rows, where=""):
    """{(row path, "EMEA › DESK"): SUM(pnl)} of rows x EMEA's desks from SQL of its own; with no `where` (the top
    rows), the Total row's cells too."""
    measure = "SUM(trades.pnl)"
    cond = "books.region = 'EMEA'" + (f" AND {where}" if where else "")
    by = ", ".join(rows + ["books.desk"])
    want = {(tuple(r[:len(rows)]), f"EMEA › {label(r[-2])}"): r[-1]
            for r in sql(f"SELECT {by}, {measure} {BOOKS} WHERE {cond} GROUP BY {by}")["rows"]}
    if not where:
        for r in sql(f"SELECT books.desk, {measure} {BOOKS} WHERE {cond} GROUP BY books.desk")["rows"]:
            want[(("Total",), f"EMEA › {label(r[0])}")] = r[-1]
    return want


def check_column_drill(page):
    """books.region on columns opened to EMEA's desks in place, then years on rows opened too: every cell, each
    crossing of an opened row and an opened column included, equals SQL of its own over HTTP."""
    set_axes(page, ["trade_date.year"], ["books.region"])
    if [2025] in row_paths(page) and any(len(p) > 1 for p in row_paths(page)):
        toggle(page, [2025], "collapse row 2025 (opened by the hierarchy check)")
    year = "year(trades.trade_date)"
    month = "strftime(trades.trade_date, '%Y-%m')"
    measure = "SUM(trades.pnl)"
    want = pivot_want([year], ["books.region"], measure, BOOKS)
    compare(page, "year x books.region", want=want)
    toggle_column(page, ["EMEA"], "expand column EMEA")
    children = emea_desks_want([year])
    n = compare(page, "column EMEA expanded", want={**want, **children})
    titles = column_titles(page)
    at = titles.index("EMEA")
    desks = sorted({k[1] for k in children})
    if sorted(titles[at + 1:at + 1 + len(desks)]) != desks or any(t.startswith("EMEA ›") for t in titles[:at]):
        fail(f"EMEA's desks are not the columns right after it: {titles}")
    print(f"{PROG}: column EMEA expanded in place to its {len(desks)} desks: {n} cells equal")
    if "ocol=" not in page.url:
        fail(f"the URL does not hold the columns opened: {page.url}")
    names = page.evaluate("() => echarts.getInstanceByDom(document.getElementById('chart')).getOption()"
                          ".series.map(s => s.name)")
    if "EMEA" in names or desks[0] not in names:
        fail(f"the chart does not draw column EMEA as its desks: {names}")
    toggle(page, [2025], "expand row 2025")
    months = {**pivot_want([year, month], ["books.region"], measure, BOOKS, f"{year} = 2025", children=True),
              **emea_desks_want([year, month], f"{year} = 2025")}
    n = compare(page, "row 2025 and column EMEA expanded", want={**want, **children, **months})
    print(f"{PROG}: row 2025 opened to its months and column EMEA to its desks at once: {n} cells equal")
    link = page.url
    other = page.context.browser.new_page(viewport={"width": 1700, "height": 2600})
    other.goto(link)
    wait_ready(other, "open the link with a column opened")
    compare(other, "the link with row 2025 and column EMEA opened", want={**want, **children, **months})
    other.close()
    toggle_column(page, ["EMEA"], "collapse column EMEA")
    toggle(page, [2025], "collapse row 2025")
    compare(page, "column EMEA collapsed", want=want)
    print(f"{PROG}: the view's link reopens both; column EMEA collapses back to one column")


def click_cell(page, path, title):
    field = page.evaluate("""(title) => [...document.querySelectorAll('#grid .tabulator-col[tabulator-field]')]
      .find(c => c.querySelector('.tabulator-col-title').textContent.trim() === title).getAttribute('tabulator-field')""",
                          title)
    row = "#grid .tabulator-row.total" if path == ["Total"] else \
        f"#grid .tabulator-row:has(.tabulator-cell[data-path='{json.dumps(path, separators=(',', ':'))}'])"
    page.evaluate("document.body.dataset.drill = ''")
    started = time.monotonic()
    page.click(f'{row} .tabulator-cell[tabulator-field="{field}"]')
    page.wait_for_selector("body[data-drill=ready], body[data-drill=error]", state="attached", timeout=30000)
    if page.evaluate("document.body.dataset.drill") == "error":
        fail(f"drill-through of ({path}, {title}) shows an error: {page.inner_text('#error')}")
    return (time.monotonic() - started) * 1000


def drill_ids(page):
    return [int(x) for x in page.eval_on_selector_all("#drill-rows tr td:first-child", "tds => tds.map(t => t.textContent)")]


def check_drill_through(page):
    set_axes(page, ["books.region"], ["currency"])
    toggle(page, ["EMEA"], "expand EMEA")
    desk = row_paths(page)[row_paths(page).index(["EMEA"]) + 1]
    ms = click_cell(page, desk, "EUR")
    where = f" {BOOKS} WHERE books.region = 'EMEA' AND books.desk = '{desk[1]}' AND trades.currency = 'EUR'"
    count = sql("SELECT COUNT(*)" + where)["rows"][0][0]
    shown = int(page.get_attribute("#drill-count", "data-count"))
    if shown != count:
        fail(f"drill-through of ({desk}, EUR) says {shown} rows, COUNT(*) over HTTP says {count}")
    for page_no in (0, 1):
        ids = [r[0] for r in sql(f"SELECT trades.trade_id{where} ORDER BY trades.trade_id LIMIT 100 OFFSET {page_no * 100}")["rows"]]
        if drill_ids(page) != ids:
            fail(f"drill-through page {page_no + 1} shows trades {drill_ids(page)[:3]}..., HTTP {ids[:3]}...")
        if page_no == 0 and count > 100:
            page.evaluate("document.body.dataset.drill = ''")
            page.click("#drill-next")
            page.wait_for_selector("body[data-drill=ready]", state="attached", timeout=30000)
    print(f"{PROG}: drill-through of ({', '.join(desk)}, EUR): {count} rows = COUNT(*) over HTTP, pages 1 and 2 "
          f"equal the same rows over HTTP; timing: click to rows painted {ms:.0f} ms")
    ms = click_cell(page, ["Total"], "Total")
    total = sql("SELECT COUNT(*) FROM trades")["rows"][0][0]
    if int(page.get_attribute("#drill-count", "data-count")) != total:
        fail(f"drill-through of the grand total does not count {total} rows")
    page.click("#drill-close")


def check_fx(page):
    set_axes(page, ["desk"], ["currency"])
    act(page, "in EUR", lambda: page.select_option("#ccy", "EUR"))
    measure = "SUM(trades.pnl * fx.rate_to_usd) / (SELECT rate_to_usd FROM fx WHERE currency = 'EUR')"
    want = pivot_want(["trades.desk"], ["trades.currency"], measure, FX)
    n = compare(page, "desk x currency SUM(pnl) in EUR", want=want)
    booked = pivot_want(["desk"], ["currency"], "SUM(pnl)", where="currency = 'EUR'", children=True)
    off = [k for k, v in booked.items() if k[1] == "EUR" and abs(want[k] - v) > 1e-9 * max(1.0, abs(v))]
    if off:
        fail(f"EUR trades in EUR are not their booked P&L: {off[:3]}")
    usd = want[(("Total",), "USD")] * sql("SELECT rate_to_usd FROM fx WHERE currency = 'EUR'")["rows"][0][0]
    if abs(usd - sql("SELECT SUM(pnl) FROM trades WHERE currency = 'USD'")["rows"][0][0]) > 1e-6 * max(1, abs(usd)):
        fail("USD trades in EUR times EUR's rate are not their booked USD P&L")
    print(f"{PROG}: desk x currency SUM(pnl) in EUR: {n} cells equal the same SQL over HTTP (EUR trades unchanged)")
    act(page, "as booked", lambda: page.select_option("#ccy", ""))


def check_sort_and_ranges(page):
    set_axes(page, ["desk"], ["currency"])
    act(page, "sort by total", lambda: page.select_option("#sort", "desc"))
    act(page, "top 5", lambda: (page.fill("#top", "5"), page.press("#top", "Tab")))
    top = [r[0] for r in sql("SELECT desk, SUM(pnl) AS v FROM trades GROUP BY desk ORDER BY v DESC LIMIT 5")["rows"]]
    if [p[0] for p in row_paths(page)] != top + ["Total"]:
        fail(f"top 5 desks by SUM(pnl) are {top}, the page shows {row_paths(page)}")
    want = {k: v for k, v in expected_cells().items() if k[0][0] in top or k[0] == ("Total",)}
    compare(page, "top 5 desks", want=want)
    print(f"{PROG}: sorted by the measure, top 5: {', '.join(top)}, as ORDER BY ... LIMIT 5 over HTTP")
    act(page, "all rows", lambda: (page.fill("#top", ""), page.press("#top", "Tab")))
    set_axes(page, ["books.region"], ["currency"])
    toggle(page, ["EMEA"], "expand EMEA, sorted")
    ranked = [tuple(r[:-1]) for r in sql(f"SELECT books.region, SUM(trades.pnl) AS v {BOOKS} GROUP BY books.region "
                                         "ORDER BY v DESC")["rows"]]
    desks = [tuple(r[:-1]) for r in sql(f"SELECT books.region, books.desk, SUM(trades.pnl) AS v {BOOKS} "
                                        "WHERE books.region = 'EMEA' GROUP BY books.region, books.desk ORDER BY v DESC")["rows"]]
    at = ranked.index(("EMEA",)) + 1
    if [tuple(p) for p in row_paths(page)] != ranked[:at] + desks + ranked[at:] + [("Total",)]:
        fail(f"sorted regions with EMEA open are not in ORDER BY SUM(pnl) DESC at both levels: {row_paths(page)[:6]}")
    print(f"{PROG}: sorted by the measure with EMEA open: regions and EMEA's desks both in ORDER BY v DESC")
    act(page, "sort by member", lambda: page.select_option("#sort", ""))
    set_axes(page, ["desk"], ["currency"])
    act(page, "add a pnl range", lambda: page.select_option("#add-range", "pnl"))
    act(page, "pnl from 0", lambda: (page.fill('.range[data-column="pnl"] input[name=from]', "0"),
                                     page.press('.range[data-column="pnl"] input[name=from]', "Tab")))
    act(page, "add a date range", lambda: page.select_option("#add-range", "trade_date"))
    box = '.range[data-column="trade_date"]'
    for end, day in (("from", "2025-03-01"), ("to", "2025-03-31")):
        act(page, f"date {end}", lambda e=end, d=day: (page.fill(f"{box} input[name={e}]", d),
                                                        page.press(f"{box} input[name={e}]", "Tab")))
    where = "pnl >= 0 AND trade_date >= DATE '2025-03-01' AND trade_date <= DATE '2025-03-31'"
    n = compare(page, "ranges on pnl and trade_date", want=pivot_want(["desk"], ["currency"], "SUM(pnl)", where=where))
    print(f"{PROG}: ranges pnl >= 0 and March 2025: {n} cells equal")
    for col in ("pnl", "trade_date"):
        act(page, f"remove the {col} range", lambda c=col: page.click(f'.range[data-column="{c}"] .chip button'))


def check_charts(page):
    cells = len(sql("SELECT desk, currency FROM trades GROUP BY desk, currency")["rows"])
    option = "() => echarts.getInstanceByDom(document.getElementById('chart')).getOption().series"
    act(page, "line chart", lambda: page.select_option("#chart-type", "line"))
    lines = page.evaluate(option)
    if len(lines) != 20 or any(s["type"] != "line" or len(s["data"]) != 50 for s in lines):
        fail(f"the line chart is not 20 currencies over 50 desks: {[(s['type'], len(s['data'])) for s in lines]}")
    act(page, "heat map", lambda: page.select_option("#chart-type", "heatmap"))
    series = page.evaluate(option)
    if len(series) != 1 or series[0]["type"] != "heatmap" or len(series[0]["data"]) != cells:
        fail(f"the heat map does not hold the {cells} cells: {[(s['type'], len(s['data'])) for s in series]}")
    print(f"{PROG}: line chart ({len(lines)} series) and heat map of the {cells} cells drawn")
    act(page, "bar chart", lambda: page.select_option("#chart-type", "bar"))


def check_columns_only(page):
    set_axes(page, [], ["currency"])
    want = {(("",), c): v for c, v in sql("SELECT currency, SUM(pnl) FROM trades GROUP BY currency")["rows"]}
    n = compare(page, "currency on columns only", want=want)
    print(f"{PROG}: nothing on rows, currency on columns: one row of {n} cells equal")


def check_scrolling(page):
    started = time.monotonic()
    set_axes(page, ["counterparty"], ["trade_date.month"])
    built = (time.monotonic() - started) * 1000
    rows = len(row_paths(page))
    members = sql("SELECT counterparty FROM trades GROUP BY counterparty ORDER BY counterparty")["rows"]
    months = len(sql("SELECT strftime(trade_date, '%Y-%m') FROM trades GROUP BY 1")["rows"])
    last = members[-1][0]
    started = time.monotonic()
    scroll_to_end(page)
    page.wait_for_selector(f"#grid .tabulator-cell[data-path='{json.dumps([last])}']", timeout=30000)
    scrolled = (time.monotonic() - started) * 1000
    want = {k: v for k, v in pivot_want(["counterparty"], ["strftime(trade_date, '%Y-%m')"], "SUM(pnl)",
                                         where=f"counterparty = '{last}'", children=True).items()}
    got = {(tuple(json.loads(p)), c): float(v) if v else None for p, c, v, _ in grid(page) if json.loads(p) == [last]}
    if any(got.get(k) != v for k, v in want.items()):
        fail(f"the last row ({last}) painted after scrolling differs from HTTP: {got} vs {want}")
    print(f"{PROG}: {len(members)} counterparties x {months} months = {len(members) * months} cells "
          f"(painted {rows} rows at a time); timing: built in {built:.0f} ms, scrolled to the end and the last row "
          f"painted in {scrolled:.0f} ms")


def main():
    console_errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1700, "height": 2600})
        page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: console_errors.append(str(e)))

        started = time.monotonic()
        page.goto(HTTP + "/")
        wait_ready(page, "open")
        print(f"{PROG}: timing: open the page: {(time.monotonic() - started) * 1000:.0f} ms to painted")
        page.evaluate("window.__sameDocument = true")

        # desk x currency SUM(pnl), built with the controls
        page.select_option("#table", "trades")
        wait_ready(page, "table")
        for name in page.eval_on_selector_all("#rows .chip", "cs => cs.map(c => c.dataset.name)"):
            act(page, f"remove {name} from rows", lambda n=name: page.click(f'#rows .chip[data-name="{n}"] button'))
        act(page, "desk on rows", lambda: page.select_option("#add-row", "desk"))
        act(page, "currency on columns", lambda: page.select_option("#add-col", "currency"))
        if page.input_value("#agg") != "SUM":
            act(page, "SUM", lambda: page.select_option("#agg", "SUM"))
        if page.input_value("#measure") != "pnl":
            act(page, "measure pnl", lambda: page.select_option("#measure", "pnl"))
        link = page.url
        for part in ("table=trades", "rows=desk", "cols=currency", "agg=SUM", "measure=pnl"):
            if part not in link:
                fail(f"the URL does not hold the view: {part} missing from {link}")
        n = compare(page, "desk x currency SUM(pnl)")
        print(f"{PROG}: {n} cells (50 desks x 20 currencies with totals) equal POST /v1/query's answers")
        sent = page.text_content("#sql")
        if "SELECT desk, currency, SUM(pnl) AS v FROM trades GROUP BY desk, currency" not in sent:
            fail(f"the page does not show the SQL it sent: {sent[:200]}")
        stats = page.inner_text("#stats")
        for part in ("rows scanned 100,000", "at home", "server ", "version 1"):
            if part not in stats:
                fail(f"the statistics lack '{part}': {stats}")
        print(f"{PROG}: stats shown: {stats}")
        if page.evaluate("document.querySelectorAll('#chart canvas').length") < 1:
            fail("no chart drawn")

        # the link reproduces the view
        other = browser.new_page(viewport={"width": 1700, "height": 2600})
        other.goto(link)
        wait_ready(other, "open the link")
        compare(other, "the view's link opened in a new page")
        other.close()
        print(f"{PROG}: the view's link reproduces it in a new page")

        # filters by value: EUR and USD only, then the filter removed
        act(page, "add a currency filter", lambda: page.select_option("#add-filter", "currency"))
        for value in ("EUR", "USD"):
            box = f'.filter[data-column="currency"] input[value="{value}"]'
            page.wait_for_selector(box, timeout=30000)
            act(page, f"filter currency {value}", lambda b=box: page.check(b))
        if "f.currency=EUR" not in page.url or "f.currency=USD" not in page.url:
            fail(f"the URL does not hold the filter: {page.url}")
        n = compare(page, "filtered to EUR and USD", " WHERE currency = 'EUR' OR currency = 'USD'")
        print(f"{PROG}: filtered to EUR and USD: {n} cells equal POST /v1/query's answers")
        act(page, "remove the filter", lambda: page.click('.filter[data-column="currency"] .chip button'))

        # drag and drop: currency from columns to rows, and back
        act(page, "drag currency to rows", lambda: page.drag_and_drop('#cols .chip[data-name="currency"]', "#rows"))
        on_rows = page.eval_on_selector_all("#rows .chip", "cs => cs.map(c => c.dataset.name)")
        if on_rows != ["desk", "currency"] or page.eval_on_selector_all("#cols .chip", "cs => cs.length") != 0:
            fail(f"dragging currency to rows gave rows {on_rows}")
        act(page, "drag currency back to columns", lambda: page.drag_and_drop('#rows .chip[data-name="currency"]', "#cols"))
        compare(page, "after dragging currency to rows and back")
        print(f"{PROG}: dragging currency to rows and back works")

        # a server error is shown with its position, then the view recovers
        page.select_option("#measure", "desk")
        page.wait_for_selector("body[data-state=error]", state="attached", timeout=30000)
        error = page.inner_text("#error")
        if "42804" not in error or "^" not in error:
            fail(f"the error is not shown with its code and position: {error}")
        print(f"{PROG}: a server error is shown: {error.splitlines()[0]}")
        act(page, "measure pnl again", lambda: page.select_option("#measure", "pnl"))

        # live: a batch appended over HTTP changes the cells without a reload
        before = page.evaluate("Number(document.body.dataset.version)")
        answer = post("/v1/tables/trades/rows",
                      "trade_id,desk,currency,pnl\n900000001,DESK-00,EUR,25000\n900000002,DESK-01,USD,-2500.5\n",
                      "text/csv")
        appended = time.monotonic()
        deadline = appended + LIVE_WAIT_S
        while page.evaluate("Number(document.body.dataset.version)") != answer["version"] or \
                page.evaluate("document.body.dataset.state") != "ready":
            if time.monotonic() > deadline:
                fail(f"the page still shows version {before}, not {answer['version']}, {LIVE_WAIT_S} s after the write")
            time.sleep(0.05)
        print(f"{PROG}: timing: append to painted: {(time.monotonic() - appended) * 1000:.0f} ms "
              f"(version {before} -> {answer['version']}, pushed by server-sent events)")
        if not page.evaluate("window.__sameDocument === true"):
            fail("the page was reloaded to show the write")
        compare(page, "after the append")
        print(f"{PROG}: after the append every cell equals POST /v1/query's answers again, without a reload")

        check_other_table(page)
        check_hierarchy(page)
        check_column_drill(page)
        check_drill_through(page)
        check_fx(page)
        check_sort_and_ranges(page)
        check_charts(page)
        check_columns_only(page)
        check_scrolling(page)

        # the picture: a region opened to its desks, in EUR, and a cell's rows, opened from a link
        shot = browser.new_page(viewport={"width": 1500, "height": 1100})
        shot.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
        shot.goto(HTTP + '/#table=trades&rows=books.region&cols=currency&agg=SUM&measure=pnl&ccy=EUR'
                  '&open=%5B%22EMEA%22%5D&f.currency=EUR&f.currency=GBP&f.currency=JPY&f.currency=USD'
                  '&f.currency=CHF&f.currency=AUD')
        wait_ready(shot, "open the picture's link")
        if len(row_paths(shot)) < 10:
            fail(f"the link with open=EMEA does not show EMEA's desks: {row_paths(shot)}")
        click_cell(shot, row_paths(shot)[3], "GBP")
        shot.wait_for_timeout(300)
        shot.screenshot(path=SCREENSHOT, full_page=True)
        print(f"{PROG}: screenshot {SCREENSHOT}")
        timings = page.evaluate("window.numacubeTimings")
        for t in timings:
            if t["what"].startswith("model of trades"):
                print(f"{PROG}: timing: page-side {t['what']}: {t['ms']:.0f} ms")
                break
        print(f"{PROG}: timing: page-side (request to painted): "
              + ", ".join(f"{t['what']} {t['ms']:.0f} ms" for t in timings[-6:]))
        browser.close()
    relevant = [e for e in console_errors if "status of 400" not in e]  # the error check's own 400
    if relevant:
        fail(f"the browser console has errors (a Content-Security-Policy violation is one): {relevant[:3]}")
    print(f"{PROG}: OK")


CHROMIUM = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/chromium"
main()

"""The pivot page in a real browser (run by tools/pivot-check; headless Debian Chromium driven by Playwright).

usage: pivot-check.py HTTP_URL SCREENSHOT

Builds desk x currency SUM(pnl) with the page's controls, compares every cell and total the page shows with the same
SQL posted over HTTP, opens the view's link in a new page (the same cells), shows a server error with its position,
appends a batch over HTTP and waits for the cells to change without a reload, and saves a screenshot. Timings of
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
    """The grid as painted: {(row label, column title): data-value} over every rendered cell."""
    return page.evaluate("""() => {
      const titles = {};
      for (const c of document.querySelectorAll('#grid .tabulator-col[tabulator-field]')) {
        titles[c.getAttribute('tabulator-field')] = c.querySelector('.tabulator-col-title').textContent.trim();
      }
      const cells = [];
      for (const row of document.querySelectorAll('#grid .tabulator-row')) {
        const head = row.querySelector('.tabulator-cell[tabulator-field="r0"]');
        for (const cell of row.querySelectorAll('.tabulator-cell[tabulator-field]')) {
          const field = cell.getAttribute('tabulator-field');
          if (field.startsWith('r')) continue;
          cells.push([head ? head.textContent.trim() : '', titles[field], cell.dataset.value, cell.textContent.trim()]);
        }
      }
      return cells;
    }""")


def expected_cells(where=""):
    want = {}
    for desk, currency, v in sql(f"SELECT desk, currency, SUM(pnl) FROM trades{where} GROUP BY desk, currency")["rows"]:
        want[(desk, currency)] = v
    for desk, v in sql(f"SELECT desk, SUM(pnl) FROM trades{where} GROUP BY desk")["rows"]:
        want[(desk, "Total")] = v
    for currency, v in sql(f"SELECT currency, SUM(pnl) FROM trades{where} GROUP BY currency")["rows"]:
        want[("Total", currency)] = v
    want[("Total", "Total")] = sql(f"SELECT SUM(pnl) FROM trades{where}")["rows"][0][0]
    return want


def compare(page, what, where=""):
    want = expected_cells(where)
    got = {}
    for row, col, value, text in grid(page):
        if not text and value:
            fail(f"{what}: cell ({row}, {col}) has a value {value} but shows nothing")
        got[(row, col)] = float(value) if value else None
    missing = sorted(k for k in want if k not in got)
    if missing:
        fail(f"{what}: {len(missing)} cells not painted, e.g. {missing[:3]} (painted {len(got)})")
    extra = sorted(k for k in got if k not in want and got[k] is not None)
    if extra:
        fail(f"{what}: cells painted that the SQL does not answer: {extra[:3]}")
    wrong = [(k, got[k], want[k]) for k in want if got[k] != want[k]]
    if wrong:
        fail(f"{what}: {len(wrong)} cells differ from POST /v1/query, e.g. (cell, page, http) {wrong[:3]}")
    return len(want)


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

        page.set_viewport_size({"width": 1500, "height": 1000})
        page.wait_for_timeout(300)
        page.screenshot(path=SCREENSHOT)
        print(f"{PROG}: screenshot {SCREENSHOT}")
        timings = page.evaluate("window.numacubeTimings")
        print(f"{PROG}: timing: page-side (request to painted): "
              + ", ".join(f"{t['what']} {t['ms']:.0f} ms" for t in timings[-6:]))
        browser.close()
    relevant = [e for e in console_errors if "status of 400" not in e]  # the error check's own 400
    if relevant:
        fail(f"the browser console has errors (a Content-Security-Policy violation is one): {relevant[:3]}")
    print(f"{PROG}: OK")


CHROMIUM = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/chromium"
main()

"""Shared helpers of campaign 13's browser scripts: open the pivot page at a link, wait for it, read what it shows."""
import json
import time
import urllib.parse
import urllib.request
from decimal import Decimal

CHROMIUM = "/usr/bin/chromium"
XSS_COL = '<img src=x onerror="document.body.dataset.xss=\'col\'">'

# elements that only markup injected by data could have made, anywhere in the page
INJECTED = """() => {
  const found = [];
  for (const sel of ['img[src="x"]', 'b#injected-b', 'a#injected-a', 'meta[http-equiv]', 'script:not([src])',
                     'img[src^="x"]']) {
    for (const e of document.querySelectorAll(sel)) found.push(sel + ' in ' + (e.parentElement && (e.parentElement.className || e.parentElement.tagName)));
  }
  if (document.body.dataset.xss) found.push('script ran: ' + document.body.dataset.xss);
  return found;
}"""


def post_sql(http, sql):
    req = urllib.request.Request(http + "/v1/query", data=json.dumps({"sql": sql}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read(), parse_float=Decimal)
    except urllib.error.HTTPError as e:
        return json.loads(e.read())


def link(**view):
    p = []
    for k, v in view.items():
        for x in (v if isinstance(v, list) else [v]):
            p.append((k.replace("__", "."), x))
    return "#" + urllib.parse.urlencode(p, quote_via=urllib.parse.quote)


def wait(page, timeout=30000):
    page.wait_for_selector("body[data-state=ready], body[data-state=error]", state="attached", timeout=timeout)
    return page.evaluate("document.body.dataset.state")


def open_view(browser, http, hash_, console):
    page = browser.new_page()
    page.on("console", lambda m: console.append(m.type + ": " + m.text))
    page.on("pageerror", lambda e: console.append("pageerror: " + str(e)))
    page.goto(http + "/" + hash_)
    state = wait(page)
    return page, state


def cells(page):
    return page.evaluate("""() => [...document.querySelectorAll('#grid .tabulator-cell')].map(c =>
        [c.getAttribute('tabulator-field'), c.dataset.value ?? null, c.textContent])""")


def headers(page):
    return page.evaluate("""() => [...document.querySelectorAll('#grid .tabulator-col-title')].map(c => c.innerHTML)""")


def sent_sql(page):
    return [s.rstrip(";") for s in page.evaluate("document.getElementById('sql').textContent").split(";\n") if s.strip()]

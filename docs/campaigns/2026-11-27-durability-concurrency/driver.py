#!/usr/bin/env python3
"""Hostile durability/concurrency driver for `numacube serve --data-dir DIR`.

Table `ledger(wid INT, nrows INT, amount LONG, ver LONG, writer STRING)`. Every write is one unit with a unique
`wid`; all its rows carry `nrows` (the unit's row count) and amounts summing to zero, so a reader seeing part of a
write notices (count(*) != nrows or sum(amount) != 0). UPDATEs bump `ver` of every row of a wid (min(ver) must equal
max(ver)). A transaction inserts wid W and deletes an older wid D it alone claimed: W and D are never both visible.
Savepoints roll back rows of a "never" wid, and failing transactions/POSTs hold "never" wids: none may ever appear.

Writers (threads): INSERT multi-row (psycopg), COPY (psycopg, some big), HTTP POST CSV and NDJSON, UPDATE, DELETE,
BEGIN..SAVEPOINT..ROLLBACK TO..DELETE..COMMIT blocks, big COPY-in-a-block transactions, psql multi-statement simple
queries (an implicit transaction), failing blocks and failing POSTs. Readers check every answer live.

The server is killed with SIGKILL at random moments, during checkpoints (a checkpoint's .tmp file seen), during a big
COPY, during a big transaction's COMMIT, and during recovery; after each restart every acknowledged write must be
there whole, every acknowledged delete gone, no never-wid, no partial wid, and in-doubt writes are settled by what
recovery shows (and must stay settled after later restarts).

Usage: driver.py --cycles N [--seconds S] [--root /tmp/c5]
"""
import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import psycopg

REPO = os.environ.get("NUMACUBE_REPO", "/work/wt-crash5")
READY = re.compile(r"^numacube ready (http://\S+) postgresql://127\.0\.0\.1:(\d+)")
STACK = re.compile(r"(\bat (io|java|jdk|sun)\.[\w.$]+\(|Exception\b(?!:)|\.java:\d+\))")


class Bug(Exception):
    pass


class Ledger:
    """What the driver knows about every write; guarded by `lock`."""

    def __init__(self):
        self.lock = threading.Lock()
        self.next_wid = 1
        # wid -> dict(rows, kind, state: pending|acked|failed|doubt, deleted: None|pending|acked|doubt)
        self.w = {0: dict(rows=2, kind="seed", state="acked", deleted=None, claimed=False)}
        self.never = set()
        self.links = {}  # txn wid W -> deleted wid D
        self.ver = {0: [0, 0]}  # wid -> [acked updates, updates in flight or in doubt]
        self.stats = dict(acked=0, failed=0, doubt=0, rows_acked=0, updates_acked=0, deletes_acked=0,
                          bad_writes_refused=0, reads=0)
        self.violations = []

    def new_wid(self, rows, kind):
        with self.lock:
            wid = self.next_wid
            self.next_wid += 1
            self.w[wid] = dict(rows=rows, kind=kind, state="pending", deleted=None, claimed=False)
            self.ver[wid] = [0, 0]
            return wid

    def new_never(self):
        with self.lock:
            wid = self.next_wid
            self.next_wid += 1
            self.never.add(wid)
            return wid

    def settle(self, wid, state):
        with self.lock:
            self.w[wid]["state"] = state
            self.stats[{"acked": "acked", "failed": "failed", "doubt": "doubt"}[state]] += 1
            if state == "acked":
                self.stats["rows_acked"] += self.w[wid]["rows"]

    def claim(self, rng, for_update=False):
        """An acknowledged, live wid; claimed for a delete unless for_update."""
        with self.lock:
            live = [k for k, v in self.w.items() if v["state"] == "acked" and v["deleted"] is None and not v["claimed"]
                    and k != 0]
            if not live:
                return None
            wid = rng.choice(live[-200:])
            if for_update:
                self.ver[wid][1] += 1
            else:
                self.w[wid]["claimed"] = True
                self.w[wid]["deleted"] = "pending"
            return wid

    def violation(self, text):
        with self.lock:
            self.violations.append(text)
        print("VIOLATION:", text, flush=True)


def values(wid, n, writer, rng):
    amounts = [rng.randint(-1000, 1000) for _ in range(n - 1)]
    amounts.append(-sum(amounts))
    return [(wid, n, a, 0, writer) for a in amounts]


def sql_rows(rows):
    return ",".join(f"({w},{n},{a},{v},'{s}')" for w, n, a, v, s in rows)


def looks_like_stack(text):
    return bool(STACK.search(text or ""))


class Server:
    def __init__(self, root, args):
        self.root = root
        self.dir = os.path.join(root, "d")
        self.args = args
        self.proc = None
        self.http = None
        self.pg = None
        self.log = None

    def start(self, first=False, extra=(), wait=True, timeout=180):
        cmd = [os.path.join(REPO, "numacube"), "serve", "--data-dir", self.dir, "--http-port", "0", "--pg-port", "0"]
        if first:
            csv = os.path.join(self.root, "ledger.csv")
            with open(csv, "w") as f:
                f.write("wid,nrows,amount,ver,writer\n0,2,5,0,seed\n0,2,-5,0,seed\n")
            cmd += ["--generate", "10000", "--table", f"ledger={csv}", "--schema",
                    "ledger=wid INT, nrows INT, amount LONG, ver LONG, writer STRING"]
        cmd += list(extra)
        env = dict(os.environ, NUMACUBE_NO_BUILD="1")
        self.log = open(os.path.join(self.root, "server.log"), "a")
        self.log.write(f"\n=== {time.strftime('%H:%M:%S')} {' '.join(cmd)}\n")
        self.log.flush()
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                     cwd=REPO)
        self.lines = []
        self.ready = threading.Event()
        threading.Thread(target=self._pump, daemon=True).start()
        if wait:
            return self.wait_ready(timeout)

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.append(line)
            self.log.write(line)
            self.log.flush()
            m = READY.match(line)
            if m:
                self.http, self.pg = m.group(1), int(m.group(2))
                self.ready.set()

    def wait_ready(self, timeout):
        t0 = time.time()
        while time.time() - t0 < timeout:
            if self.ready.wait(0.2):
                return True
            if self.proc.poll() is not None:
                time.sleep(0.3)
                return False
        raise Bug(f"server not ready after {timeout}s (hang?)")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def conn(self):
        return psycopg.connect(host="127.0.0.1", port=self.pg, user="c5", dbname="c5", autocommit=True,
                               connect_timeout=5)

    def post(self, body, ctype, timeout=60):
        req = urllib.request.Request(f"{self.http}/v1/tables/ledger/rows", data=body, method="POST",
                                     headers={"Content-Type": ctype})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())

    def query_http(self, sql, timeout=60):
        req = urllib.request.Request(f"{self.http}/v1/query", data=json.dumps({"sql": sql}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())


GROUPS = "SELECT wid, count(*), sum(amount), min(nrows), max(nrows), min(ver), max(ver) FROM ledger GROUP BY wid"


class Campaign:
    def __init__(self, args):
        self.args = args
        self.root = args.root
        self.srv = Server(self.root, args)
        self.led = Ledger()
        self.rng = random.Random(args.seed)
        self.stop = threading.Event()
        self.copy_started = threading.Event()
        self.commit_sent = threading.Event()
        self.kills = dict(random=0, checkpoint=0, copy=0, commit=0, recovery=0)
        self.client_errors = {}

    # ---------------------------------------------------------------- outcome helpers
    def outcome(self, wids, fn, never=False):
        """Runs fn; settles wids acked, failed (server said no) or doubt (connection lost)."""
        try:
            fn()
        except (psycopg.errors.Error, urllib.error.HTTPError) as e:
            msg = str(e)
            if isinstance(e, urllib.error.HTTPError):
                try:
                    msg = e.read().decode()
                except Exception:
                    msg = "?"
            sqlstate = getattr(e, "sqlstate", None)
            if looks_like_stack(msg):
                self.led.violation(f"stack trace to client: {msg[:400]}")
            lost = isinstance(e, (psycopg.OperationalError, psycopg.InterfaceError)) and sqlstate is None
            if sqlstate in ("58030", "58000") or (isinstance(e, urllib.error.HTTPError) and "58030" in msg):
                lost = True  # the log failed: the write may be in it
            key = (sqlstate or type(e).__name__) + ": " + msg.split("\n")[0][:120]
            self.client_errors[key] = self.client_errors.get(key, 0) + 1
            for w in wids:
                self.led.settle(w, "doubt" if lost else "failed")
            return False
        except (OSError, urllib.error.URLError, ValueError) as e:
            for w in wids:
                self.led.settle(w, "doubt")
            return False
        if never:
            self.led.violation(f"a write that must fail was acknowledged: wids={wids}")
        for w in wids:
            self.led.settle(w, "acked")
        return True

    # ---------------------------------------------------------------- writers
    def w_insert(self, rng, conn):
        n = rng.randint(1, 40)
        wid = self.led.new_wid(n, "insert")
        self.outcome([wid], lambda: conn.execute(f"INSERT INTO ledger VALUES {sql_rows(values(wid, n, 'ins', rng))}"))

    def w_copy(self, rng, conn, big=False):
        n = rng.randint(5000, 30000) if big else rng.randint(1, 300)
        wid = self.led.new_wid(n, "copy")
        data = "".join(f"{w},{k},{a},{v},{s}\n" for w, k, a, v, s in values(wid, n, "copy", rng))

        def go():
            with conn.cursor() as cur:
                with cur.copy("COPY ledger FROM STDIN (FORMAT csv)") as cp:
                    half = len(data) // 2
                    cp.write(data[:half])
                    if big:
                        self.copy_started.set()
                    cp.write(data[half:])

        self.outcome([wid], go)

    def w_http(self, rng, _conn):
        n = rng.randint(1, 200)
        wid = self.led.new_wid(n, "http")
        rows = values(wid, n, "http", rng)
        if rng.random() < 0.5:
            body = "wid,nrows,amount,ver,writer\n" + "".join(f"{w},{k},{a},{v},{s}\n" for w, k, a, v, s in rows)
            self.outcome([wid], lambda: self.srv.post(body.encode(), "text/csv"))
        else:
            body = "".join(json.dumps(dict(wid=w, nrows=k, amount=a, ver=v, writer=s)) + "\n"
                           for w, k, a, v, s in rows)
            self.outcome([wid], lambda: self.srv.post(body.encode(), "application/x-ndjson"))

    def w_update(self, rng, conn):
        wid = self.led.claim(rng, for_update=True)
        if wid is None:
            return
        try:
            conn.execute(f"UPDATE ledger SET ver = ver + 1 WHERE wid = {wid}")
            with self.led.lock:
                self.led.ver[wid][0] += 1
                self.led.ver[wid][1] -= 1
                self.led.stats["updates_acked"] += 1
        except psycopg.errors.Error as e:
            if getattr(e, "sqlstate", None) and looks_like_stack(str(e)):
                self.led.violation(f"stack trace to client: {e}")
            if getattr(e, "sqlstate", None) not in (None, "58030"):
                with self.led.lock:
                    self.led.ver[wid][1] -= 1
            raise

    def w_delete(self, rng, conn):
        wid = self.led.claim(rng)
        if wid is None:
            return
        try:
            conn.execute(f"DELETE FROM ledger WHERE wid = {wid}")
            self._deleted(wid, "acked")
            self.led.stats["deletes_acked"] += 1
        except psycopg.errors.Error as e:
            self._deleted(wid, "doubt" if getattr(e, "sqlstate", None) in (None, "58030") else None)
            raise

    def _deleted(self, wid, state):
        with self.led.lock:
            self.led.w[wid]["deleted"] = state
            if state is None:
                self.led.w[wid]["claimed"] = False

    def w_txn(self, rng, conn, big=False):
        a = rng.randint(1, 20)
        b = rng.randint(1, 20)
        big_n = rng.randint(10000, 40000) if big else 0
        wid = self.led.new_wid(a + b + big_n, "txn")
        junk = self.led.new_never()
        dead = self.led.claim(rng)
        rows = values(wid, a + b + big_n, "txn", rng)
        if dead is not None:
            with self.led.lock:
                self.led.links[wid] = dead

        def go():
            conn.execute("BEGIN")
            conn.execute(f"INSERT INTO ledger VALUES {sql_rows(rows[:a])}")
            conn.execute("SAVEPOINT s1")
            conn.execute(f"INSERT INTO ledger VALUES {sql_rows(values(junk, 3, 'junk', rng))}")
            if rng.random() < 0.3:
                conn.execute(f"DELETE FROM ledger WHERE wid = 0")
            conn.execute("ROLLBACK TO SAVEPOINT s1")
            if big_n:
                data = "".join(f"{w},{k},{x},{v},{s}\n" for w, k, x, v, s in rows[a + b:])
                with conn.cursor() as cur:
                    with cur.copy("COPY ledger FROM STDIN (FORMAT csv)") as cp:
                        cp.write(data)
            conn.execute(f"INSERT INTO ledger VALUES {sql_rows(rows[a:a + b])}")
            if dead is not None:
                conn.execute(f"DELETE FROM ledger WHERE wid = {dead}")
            if big:
                self.commit_sent.set()
            conn.execute("COMMIT")

        ok = self.outcome([wid], go)
        if not ok:
            try:
                conn.execute("ROLLBACK")
            except Exception:
                pass
        if dead is not None:
            st = self.led.w[wid]["state"]
            self._deleted(dead, "acked" if ok else ("doubt" if st == "doubt" else None))

    def w_psql(self, rng, _conn):
        """A simple query of several statements: PostgreSQL's implicit transaction, all or none."""
        a, b = rng.randint(1, 10), rng.randint(1, 10)
        wid = self.led.new_wid(a + b, "psql")
        rows = values(wid, a + b, "psql", rng)
        sql = f"INSERT INTO ledger VALUES {sql_rows(rows[:a])}; INSERT INTO ledger VALUES {sql_rows(rows[a:])};"

        def go():
            p = subprocess.run(["psql", "-X", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.srv.pg),
                                "-U", "c5", "-d", "c5", "-c", sql], capture_output=True, text=True, timeout=60)
            if p.returncode != 0:
                if looks_like_stack(p.stderr):
                    self.led.violation(f"stack trace to psql: {p.stderr[:300]}")
                if "ERROR" in p.stderr and "58030" not in p.stderr:
                    raise psycopg.errors.DataException(p.stderr)
                raise OSError(p.stderr)

        self.outcome([wid], go)

    def w_failing(self, rng, conn):
        """A block whose second INSERT is bad, committed: nothing of it may appear; a bad POST likewise."""
        bad = self.led.new_never()
        if rng.random() < 0.5:
            def go():
                try:
                    conn.execute("BEGIN")
                    conn.execute(f"INSERT INTO ledger VALUES {sql_rows(values(bad, 4, 'bad', rng))}")
                    conn.execute(f"INSERT INTO ledger VALUES ({bad},4,'notanumber',0,'bad')")
                finally:
                    try:
                        conn.execute("COMMIT")
                    except psycopg.errors.Error:
                        pass
        else:
            body = "wid,nrows,amount,ver,writer\n" + "".join(
                f"{w},{k},{a},{v},{s}\n" for w, k, a, v, s in values(bad, 5, "bad", rng)) + f"{bad},5,x1,0,bad\n"

            def go():
                self.srv.post(body.encode(), "text/csv")
        try:
            go()
            self.led.violation(f"a bad write was acknowledged: never-wid={bad}")
        except psycopg.errors.Error as e:
            if e.sqlstate:
                self.led.stats["bad_writes_refused"] += 1
            if e.sqlstate and looks_like_stack(str(e)):
                self.led.violation(f"stack trace to client: {e}")
        except urllib.error.HTTPError as e:
            self.led.stats["bad_writes_refused"] += 1
            body = e.read().decode(errors="replace")
            if looks_like_stack(body):
                self.led.violation(f"stack trace to client: {body[:300]}")
        except (OSError, urllib.error.URLError):
            pass

    def writer(self, name, kinds, seed):
        rng = random.Random(seed)
        conn = None
        while not self.stop.is_set():
            try:
                if conn is None:
                    conn = self.srv.conn()
                k = rng.choice(kinds)
                if k == "copy_big":
                    self.w_copy(rng, conn, big=True)
                elif k == "txn_big":
                    self.w_txn(rng, conn, big=True)
                else:
                    getattr(self, "w_" + k)(rng, conn)
            except (psycopg.Error, OSError, urllib.error.URLError):
                try:
                    conn and conn.close()
                except Exception:
                    pass
                conn = None
                time.sleep(0.05)

    # ---------------------------------------------------------------- readers
    def check_groups(self, groups, before, deleting_after, vers_before, vers_after, where):
        seen = {}
        for wid, cnt, total, nmin, nmax, vmin, vmax in groups:
            wid, cnt, total, nmin, nmax, vmin, vmax = map(int, (wid, cnt, total, nmin, nmax, vmin, vmax))
            seen[wid] = vmin
            info = self.led.w.get(wid)
            if wid in self.led.never:
                self.led.violation(f"{where}: never-wid {wid} visible ({cnt} rows)")
            elif info is None:
                self.led.violation(f"{where}: unknown wid {wid} visible")
            elif info["state"] == "failed":
                self.led.violation(f"{where}: wid {wid} ({info['kind']}) is there though its write was refused "
                                   f"with an error")
            elif not (cnt == nmin == nmax == info["rows"] and total == 0):
                self.led.violation(f"{where}: partial write wid={wid} kind={info['kind']} count={cnt} "
                                   f"expected={info['rows']} sum={total} nrows={nmin}..{nmax}")
            if vmin != vmax:
                self.led.violation(f"{where}: half-applied UPDATE wid={wid} ver={vmin}..{vmax}")
            if wid in vers_before and not (vers_before[wid] <= vmin <= vers_after.get(wid, vmin)):
                self.led.violation(f"{where}: ver wid={wid} is {vmin}, acked before={vers_before[wid]} "
                                   f"bound after={vers_after.get(wid)}")
        for wid in before:
            if wid not in seen and wid not in deleting_after:
                self.led.violation(f"{where}: acknowledged wid {wid} ({self.led.w[wid]['kind']}) missing")
        for w, d in list(self.led.links.items()):
            if w in seen and d in seen:
                self.led.violation(f"{where}: transaction half visible: inserted wid {w} and its deleted wid {d} "
                                   f"both there")
        return seen

    def snapshot(self):
        with self.led.lock:
            acked = {k for k, v in self.led.w.items() if v["state"] == "acked" and v["deleted"] is None}
            deleting = {k for k, v in self.led.w.items() if v["deleted"] is not None}
            vers = {k: v[0] for k, v in self.led.ver.items()}
            bound = {k: v[0] + v[1] for k, v in self.led.ver.items()}
            return acked, deleting, vers, bound

    def reader(self, seed):
        rng = random.Random(seed)
        conn = None
        while not self.stop.is_set():
            try:
                before, _, vers, _ = self.snapshot()
                if rng.random() < 0.5:
                    if conn is None:
                        conn = self.srv.conn()
                    groups = conn.execute(GROUPS).fetchall()
                    where = "pg reader"
                else:
                    groups = self.srv.query_http(GROUPS)["rows"]
                    where = "http reader"
                _, deleting, _, bound = self.snapshot()
                self.check_groups(groups, before, deleting, vers, bound, where)
                self.led.stats["reads"] += 1
            except (psycopg.Error, OSError, urllib.error.URLError, KeyError):
                conn = None
                time.sleep(0.05)

    # ---------------------------------------------------------------- cycles
    def verify_after_restart(self, cycle):
        conn = self.srv.conn()
        groups = conn.execute(GROUPS).fetchall()
        conn.close()
        with self.led.lock:
            acked = {k for k, v in self.led.w.items() if v["state"] == "acked" and v["deleted"] in (None, "doubt")}
            deleted_ok = {k for k, v in self.led.w.items() if v["deleted"] == "acked"}
            doubtful_del = {k for k, v in self.led.w.items() if v["deleted"] == "doubt"}
        vers = {k: v[0] for k, v in self.led.ver.items()}
        bound = {k: v[0] + v[1] for k, v in self.led.ver.items()}
        seen = self.check_groups(groups, acked - doubtful_del, doubtful_del, vers, bound, f"after restart {cycle}")
        with self.led.lock:
            for w, d in self.led.links.items():
                if self.led.w[w]["state"] == "doubt" and w not in seen and d not in seen:
                    self.led.violation(f"after restart {cycle}: transaction half applied: its DELETE of wid {d} "
                                       f"is there but its inserted wid {w} is not")
        for d in deleted_ok:
            if d in seen:
                self.led.violation(f"after restart {cycle}: wid {d} whose DELETE was acknowledged is back")
        # settle what was in doubt: from now on it is what recovery showed
        with self.led.lock:
            for k, v in self.led.w.items():
                if v["state"] in ("doubt", "pending"):
                    v["state"] = "acked" if k in seen else "failed"
                if v["deleted"] in ("doubt", "pending"):
                    v["deleted"] = None if k in seen else "acked"
                    v["claimed"] = k in seen and False
                if k in seen:
                    self.led.ver[k] = [seen[k], 0]
            for w, d in self.led.links.items():
                if self.led.w[w]["state"] == "failed" and d in seen:
                    self.led.w[d]["claimed"] = False
        return len(groups)

    def inject_loss(self):
        """Self-test of the checks: loses one acknowledged write and half of another behind the driver's back."""
        with self.led.lock:
            live = [k for k, v in self.led.w.items() if v["state"] == "acked" and v["deleted"] is None and k != 0
                    and v["rows"] >= 2]
        conn = self.srv.conn()
        conn.execute(f"DELETE FROM ledger WHERE wid = {live[0]}")
        conn.execute(f"DELETE FROM ledger WHERE wid = {live[1]} AND amount > 0")
        conn.close()
        print(f"injected: wid {live[0]} lost, wid {live[1]} partly lost", flush=True)

    def run_cycle(self, cycle, first):
        rng = self.rng
        mode = rng.choice(["random", "random", "checkpoint", "copy", "commit", "recovery"])
        extra = []
        if rng.random() < 0.7:
            extra = ["--checkpoint-interval", rng.choice(["1s", "2s"]), "--checkpoint-wal-size",
                     rng.choice(["16K", "256K", "4M"])]
        if not first:
            extra += ["--warm-up", "0"] if rng.random() < 0.9 else []
        if mode == "recovery" and not first:
            self.srv.start(extra=extra, wait=False)
            time.sleep(rng.uniform(0.3, 3.0))
            if not self.srv.ready.is_set():
                self.srv.kill()
                self.kills["recovery"] += 1
            else:
                self.srv.kill()
                self.kills["random"] += 1
            mode = "random"
        if not self.srv.start(first=first, extra=extra + (["--warm-up", "0"] if first else [])):
            tail = "".join(self.srv.lines[-15:])
            raise Bug(f"server did not start after kill (cycle {cycle}):\n{tail}")
        tmp = [f for f in os.listdir(self.srv.dir) if f.endswith(".tmp")]
        if self.args.inject_loss and cycle == self.args.cycles - 1:
            self.inject_loss()
        nrows = self.verify_after_restart(cycle)
        self.stop.clear()
        self.copy_started.clear()
        self.commit_sent.clear()
        kinds = [["insert", "copy", "update", "delete"], ["http", "txn", "failing", "update"],
                 ["psql", "insert", "delete", "txn"], ["copy_big", "txn_big", "http", "copy"]]
        threads = [threading.Thread(target=self.writer, args=(f"w{i}", k, rng.random()), daemon=True)
                   for i, k in enumerate(kinds)]
        threads += [threading.Thread(target=self.reader, args=(rng.random(),), daemon=True) for _ in range(2)]
        for t in threads:
            t.start()
        started = time.time()
        deadline = started + rng.uniform(1.0, self.args.seconds)
        killed = "random"
        while time.time() < deadline:
            if time.time() - started < 1.5:
                time.sleep(0.01)
                continue
            if mode == "checkpoint" and any(f.endswith(".tmp") for f in os.listdir(self.srv.dir)):
                killed = "checkpoint"
                break
            if mode == "copy" and self.copy_started.is_set():
                time.sleep(rng.uniform(0, 0.05))
                killed = "copy"
                break
            if mode == "commit" and self.commit_sent.is_set():
                time.sleep(rng.uniform(0, 0.02))
                killed = "commit"
                break
            time.sleep(0.002)
        if self.args.sigterm_share and rng.random() < self.args.sigterm_share:
            self.srv.proc.send_signal(signal.SIGTERM)
            try:
                rc = self.srv.proc.wait(90)
            except subprocess.TimeoutExpired:
                raise Bug("SIGTERM under writes: the server did not exit in 90 s (hang?)")
            if rc != 0:
                self.led.violation(f"SIGTERM under writes: exit status {rc}")
            killed = "sigterm"
        else:
            self.srv.kill()
        self.kills[killed] = self.kills.get(killed, 0) + 1
        self.stop.set()
        for t in threads:
            t.join(120)
            if t.is_alive():
                raise Bug("a client thread hangs after the kill")
        print(f"cycle {cycle}: mode={mode} killed={killed} wids={nrows} stats={self.led.stats} leftover-tmp={tmp}",
              flush=True)

    def run(self):
        os.makedirs(self.root, exist_ok=True)
        if os.path.exists(self.srv.dir):
            subprocess.run(["rm", "-rf", self.srv.dir])
        for c in range(self.args.cycles):
            self.run_cycle(c, c == 0)
            if self.led.violations and self.args.stop_on_violation:
                break
        self.srv.start(extra=["--warm-up", "0"])
        nrows = self.verify_after_restart("final")
        self.srv.proc.send_signal(signal.SIGTERM)
        rc = self.srv.proc.wait(60)
        print(json.dumps(dict(cycles=self.args.cycles, kills=self.kills, stats=self.led.stats, final_wids=nrows,
                              sigterm_rc=rc, violations=self.led.violations[:50],
                              client_errors=dict(sorted(self.client_errors.items(), key=lambda x: -x[1])[:25])),
                         indent=1))
        return 1 if self.led.violations else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cycles", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--root", default="/tmp/c5")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--stop-on-violation", action="store_true")
    ap.add_argument("--sigterm-share", type=float, default=0.0,
                    help="share of cycles that end with SIGTERM (graceful: drain, last checkpoint, exit 0) instead")
    ap.add_argument("--inject-loss", action="store_true", help="self-test: the checks must report a loss")
    args = ap.parse_args()
    print(f"seed={args.seed}", flush=True)
    sys.exit(Campaign(args).run())


if __name__ == "__main__":
    main()

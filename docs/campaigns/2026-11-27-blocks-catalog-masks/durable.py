"""kill -9 mid-block and after COMMIT with --data-dir; restart with only --data-dir; acknowledged writes kept,
uncommitted blocks' writes absent."""
import psycopg, subprocess, os, signal, time, sys
def start(name, *args):
    out = subprocess.run(['/tmp/h7/start.sh', name, *args], capture_output=True, text=True).stdout.strip()
    return int(out), int(open(f'/tmp/h7/{name}.pid').read())
def conn(port):
    return psycopg.connect(host='127.0.0.1', port=port, user='me', dbname='numacube', autocommit=True)
targs = open('/tmp/h7/targs').read().split()
subprocess.run(['rm', '-rf', '/tmp/h7/dd'])
port, pid = start('d1', *targs, '--data-dir', '/tmp/h7/dd')
a, b, c = conn(port), conn(port), conn(port)
a.execute("BEGIN"); a.execute("INSERT INTO t (id, v, s) VALUES (9001, 1, 'uncommitted')")
a.execute("UPDATE t SET v = 777, s = 'newdictvalue' WHERE id = 1"); a.execute("SAVEPOINT x"); a.execute("DELETE FROM t WHERE id = 4")
b.execute("INSERT INTO t (id, v, s) VALUES (9002, 2, 'acked')")
b.execute("BEGIN"); b.execute("UPDATE t SET v = 555, s = 'blockval' WHERE id = 2"); b.execute("DELETE FROM t WHERE id = 3")
b.execute("INSERT INTO t (id, v) VALUES (9003, 3)"); b.execute("UPDATE t SET v = v + 1 WHERE id = 9003"); b.execute("COMMIT")
cur = c.cursor(); cur.executemany("UPDATE t SET v = %s WHERE id = %s", [(111, 5), (112, 6)])
with c.pipeline():
    c.cursor().execute("DELETE FROM t WHERE id = %s", (7,)); c.cursor().execute("UPDATE t SET d = %s WHERE id = %s", ('3.14', 8))
a.execute("UPDATE t SET v = 888 WHERE id = 5")   # block still open: must not survive
expect = sorted(tuple(r) for r in b.execute("SELECT id, v, s, d FROM t").fetchall())
os.kill(pid, signal.SIGKILL); time.sleep(1)
port, pid = start('d2', '--data-dir', '/tmp/h7/dd')
d = conn(port)
got = sorted(tuple(r) for r in d.execute("SELECT id, v, s, d FROM t").fetchall())
print("after kill -9 mid-block:", "same" if got == expect else f"DIFF only-before={[r for r in expect if r not in got]} only-after={[r for r in got if r not in expect]}")
print("  9001 absent:", not any(r[0] == 9001 for r in got), " id1:", [r for r in got if r[0] == 1], " id5:", [r for r in got if r[0] == 5], " 9003:", [r for r in got if r[0] == 9003])
# second round: COMMIT then kill immediately
d.execute("BEGIN"); d.execute("UPDATE t SET s = 'second', v = -1 WHERE id % 2 = 0"); d.execute("DELETE FROM t WHERE id % 5 = 0"); d.execute("COMMIT")
e = conn(port); e.execute("BEGIN"); e.execute("INSERT INTO t (id) VALUES (9100)")
expect = sorted(tuple(r) for r in d.execute("SELECT id, v, s, d FROM t").fetchall())
os.kill(pid, signal.SIGKILL); time.sleep(1)
port, pid = start('d3', '--data-dir', '/tmp/h7/dd')
got = sorted(tuple(r) for r in conn(port).execute("SELECT id, v, s, d FROM t").fetchall())
print("after COMMIT + kill -9:", "same" if got == expect else f"DIFF only-before={[r for r in expect if r not in got]} only-after={[r for r in got if r not in expect]}")
print("  new dictionary values:", conn(port).execute("SELECT s, count(*) FROM t WHERE s IN ('second', 'blockval', 'newdictvalue', 'uncommitted') GROUP BY s ORDER BY s").fetchall())
os.kill(pid, signal.SIGTERM)

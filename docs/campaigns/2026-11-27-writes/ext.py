"""Extended-protocol writes (psycopg 3) on PostgreSQL and numacube: read-only connections, executemany, pipelines,
nested transaction() blocks, prepared statements; each step's outcome and the tables after compared."""
import sys, psycopg
PORT = int(sys.argv[1])
DSN = {'nc': f'host=127.0.0.1 port={PORT} user=me dbname=numacube', 'pg': 'host=/tmp/h12pg port=55412 user=postgres dbname=postgres'}
RESET = open('/tmp/h12/reset.sql').read()
def run(dsn, steps):
    out = []
    with psycopg.connect(dsn, autocommit=True) as c:
        for st in RESET.split(';'):
            if st.strip(): c.execute(st)
    c = psycopg.connect(dsn)
    for name, fn in steps:
        try:
            r = fn(c)
            out.append((name, 'ok', r))
        except Exception as e:
            out.append((name, 'ERR', getattr(e, 'sqlstate', None)))
            try: c.rollback()
            except Exception: pass
    c.close()
    with psycopg.connect(dsn, autocommit=True) as c:
        out.append(('final', {t: c.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall() for t in ('t', 'u', 'k')}))
    return out
def tx(c, sqls, commit=True):
    tags = []
    for s in sqls:
        cur = c.execute(*s) if isinstance(s, tuple) else c.execute(s)
        tags.append(cur.statusmessage)
    c.commit() if commit else c.rollback()
    return tags
def ro(c):
    c.read_only = True
    try:
        c.execute("SELECT count(*) FROM u").fetchone()
        c.execute("INSERT INTO u (id) VALUES (%s)", (700,))
        c.commit()
    finally:
        c.rollback(); c.read_only = False
def ro_ok(c):
    c.read_only = True
    n = c.execute("SELECT count(*) FROM u").fetchone()[0]
    c.commit(); c.read_only = False
    return n
def many(c):
    cur = c.cursor(); cur.executemany("INSERT INTO u (id, w, s) VALUES (%s, %s, %s)", [(800, 1, 'a'), (801, None, None), (802, 3, "it's")]); c.commit(); return cur.rowcount
def many_bad(c):
    cur = c.cursor(); cur.executemany("UPDATE u SET w = %s WHERE id = %s", [(1, 800), ('x', 801), (3, 802)]); c.commit()
def many_upd(c):
    cur = c.cursor(); cur.executemany("UPDATE u SET w = w + %s WHERE id >= %s", [(1, 800), (10, 801)]); c.commit(); return cur.rowcount
def pipe(c):
    with c.pipeline():
        c.execute("INSERT INTO t (id, v) VALUES (%s, %s)", (900, 1))
        c.execute("UPDATE t SET v = v + %s WHERE id = %s", (5, 900))
        c.execute("DELETE FROM t WHERE id = %s", (1,))
    c.commit()
def pipe_bad(c):
    with c.pipeline():
        c.execute("INSERT INTO t (id, v) VALUES (%s, %s)", (901, 1))
        c.execute("UPDATE t SET v = v / %s WHERE id = %s", (0, 2))
        c.execute("INSERT INTO t (id, v) VALUES (%s, %s)", (902, 'zz'))
    c.commit()
def nested(c):
    with c.transaction():
        c.execute("INSERT INTO u (id) VALUES (810)")
        try:
            with c.transaction():
                c.execute("INSERT INTO u (id) VALUES (811)")
                c.execute("INSERT INTO u (id) VALUES ('bad')")
        except psycopg.Error:
            pass
        with c.transaction():
            c.execute("UPDATE u SET s = 'nested' WHERE id = 810")
    c.commit()
def prepared(c):
    for i in range(8):
        c.execute("INSERT INTO k (id, v, s) VALUES (%s, %s, %s)", (100 + i % 3, i, f's{i}'), prepare=True)
    c.commit()
    return c.execute("SELECT count(*) FROM k WHERE id >= 100").fetchone()[0]
def upd_key_prepared(c):
    for i in range(6):
        c.execute("UPDATE k SET v = v + %s WHERE id = %s", (i, 1), prepare=True)
    c.commit()
def del_sub(c):
    cur = c.execute("DELETE FROM t WHERE id IN (SELECT id FROM u WHERE w > %s)", (200,)); c.commit(); return cur.rowcount
def upd_sub(c):
    cur = c.execute("UPDATE t SET s = %s WHERE v < (SELECT avg(w) FROM u) - %s", ('lt', 250)); c.commit(); return cur.rowcount
def sp(c):
    c.execute("INSERT INTO u (id) VALUES (820)")
    c.execute("SAVEPOINT a")
    c.execute("UPDATE u SET w = 1 WHERE id = 820")
    c.execute("SAVEPOINT b")
    c.execute("DELETE FROM u WHERE id = 820")
    c.execute("ROLLBACK TO SAVEPOINT a")
    c.execute("UPDATE u SET s = 'sp' WHERE id = 820")
    c.execute("RELEASE SAVEPOINT a")
    c.commit()
def ro_set(c):
    c.execute("SET TRANSACTION READ ONLY"); c.execute("DELETE FROM u"); c.commit()
def sess_ro(c):
    c.autocommit = True
    try:
        c.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        try: c.execute("DELETE FROM u WHERE id = 1")
        except psycopg.Error as e: r = e.sqlstate
        c.execute("SET default_transaction_read_only = off")
        c.execute("DELETE FROM u WHERE id = 1")
        return r
    finally:
        c.autocommit = False
STEPS = [('ro', ro), ('ro_ok', ro_ok), ('many', many), ('many_bad', many_bad), ('many_upd', many_upd), ('pipe', pipe),
         ('pipe_bad', pipe_bad), ('nested', nested), ('prepared', prepared), ('upd_key_prepared', upd_key_prepared),
         ('del_sub', del_sub), ('upd_sub', upd_sub), ('sp', sp), ('ro_set', ro_set), ('sess_ro', sess_ro),
         ('tags', lambda c: tx(c, ["INSERT INTO u (id) VALUES (830), (831)", "UPDATE u SET w = 0 WHERE id >= 830", "DELETE FROM u WHERE id = 831", "UPDATE u SET w = 1 WHERE id = -1"]))]
a = run(DSN['nc'], STEPS); b = run(DSN['pg'], STEPS)
same = 0
for x, y in zip(a, b):
    if x == y: same += 1
    else: print('DIFF', x[0]); print('  nc', x[1:]); print('  pg', y[1:])
print('same', same, 'of', len(a))

"""Visibility and concurrent UPDATEs of one row across two sessions, PostgreSQL vs numacube (autocommit off)."""
import sys, threading, time, psycopg
PORT = int(sys.argv[1])
DSN = {'nc': f'host=127.0.0.1 port={PORT} user=me dbname=numacube', 'pg': 'host=/tmp/h12pg port=55412 user=postgres dbname=postgres'}
def scenario(dsn):
    out = []
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("DELETE FROM u WHERE id >= 1000"); c.execute("INSERT INTO u (id, w) VALUES (1000, 0), (1001, 0)")
    a = psycopg.connect(dsn); b = psycopg.connect(dsn)
    a.execute("INSERT INTO u (id, w) VALUES (1002, 5)")
    out.append(('b sees a uncommitted', b.execute("SELECT count(*) FROM u WHERE id = 1002").fetchone()[0])); b.commit()
    out.append(('a sees own', a.execute("SELECT count(*) FROM u WHERE id = 1002").fetchone()[0]))
    a.commit()
    out.append(('b sees after commit', b.execute("SELECT count(*) FROM u WHERE id = 1002").fetchone()[0])); b.commit()
    # concurrent increments: a updates, b updates and commits (PostgreSQL: b waits for a), a commits
    a.execute("UPDATE u SET w = w + 1 WHERE id = 1000")
    done = []
    def bt():
        b.execute("UPDATE u SET w = w + 10 WHERE id = 1000"); b.commit(); done.append(1)
    t = threading.Thread(target=bt); t.start(); time.sleep(1.0)
    a.commit(); t.join(10)
    out.append(('w after both', psycopg.connect(dsn, autocommit=True).execute("SELECT w FROM u WHERE id = 1000").fetchone()[0]))
    # delete vs update race
    a.execute("DELETE FROM u WHERE id = 1001")
    def bt2():
        r = b.execute("UPDATE u SET w = 99 WHERE id = 1001"); done.append(r.rowcount); b.commit()
    t = threading.Thread(target=bt2); t.start(); time.sleep(1.0)
    a.commit(); t.join(10)
    out.append(('update after concurrent delete rowcount', done[-1]))
    out.append(('1001 rows', psycopg.connect(dsn, autocommit=True).execute("SELECT count(*) FROM u WHERE id = 1001").fetchone()[0]))
    # insert then concurrent delete by predicate
    a.execute("INSERT INTO u (id, w) VALUES (1003, 7)")
    b.execute("DELETE FROM u WHERE id >= 1000"); b.commit()
    a.commit()
    out.append(('left', psycopg.connect(dsn, autocommit=True).execute("SELECT id, w FROM u WHERE id >= 1000 ORDER BY id").fetchall()))
    a.close(); b.close()
    return out
x = scenario(DSN['nc']); y = scenario(DSN['pg'])
for p, q in zip(x, y):
    print('SAME' if p == q else 'DIFF', p, '' if p == q else q)

"""The parse-tree cache: each text run 3-4 times around writes that change dictionaries and row sets, on numacube and
PostgreSQL, every answer compared."""
import psycopg, sys, time
PG = dict(host='/tmp/h6pg', port=55436, user='postgres', dbname='postgres')
NC = dict(host='127.0.0.1', port=int(sys.argv[1]), user='me', dbname='numacube')
Q = ["SELECT s, count(*) FROM sp GROUP BY s ORDER BY s",
     "SELECT count(*) FROM sp WHERE s = 'zz'",
     "SELECT count(*) FROM sp WHERE s IN ('zz', 'a')",
     "SELECT id FROM sp WHERE s NOT IN ('a', 'b') ORDER BY id",
     "SELECT s, sum(v) FROM sp WHERE v > (SELECT avg(v) FROM sp) GROUP BY s ORDER BY s",
     "SELECT id FROM sp WHERE id IN (SELECT id FROM sp WHERE s = 'zz') ORDER BY id",
     "WITH x AS (SELECT s, max(v) AS m FROM sp GROUP BY s) SELECT s, m FROM x ORDER BY s",
     "SELECT id FROM sp s1 WHERE EXISTS (SELECT * FROM sp s2 WHERE s2.s = s1.s AND s2.id <> s1.id) ORDER BY id",
     "SELECT s FROM sp UNION SELECT 'zz' ORDER BY 1",
     "SELECT CASE WHEN s = 'zz' THEN 1 ELSE 0 END AS z, count(*) FROM sp GROUP BY 1 ORDER BY 1",
     "SELECT count(*) FROM sp WHERE s LIKE 'z%'",
     "SELECT s, v FROM sp ORDER BY v DESC, id LIMIT 3",
     "SELECT count(*) FROM sp WHERE s > 'b'",
     ]
W = ["UPDATE sp SET s = 'zz' WHERE id = 1", "INSERT INTO sp VALUES (500, 7, 'zz'), (501, -7, 'new')", "UPDATE sp SET s = 'b' WHERE s = 'zz'",
     "DELETE FROM sp WHERE s = 'a'", "UPDATE sp SET v = v * 2 WHERE s = 'new'", "INSERT INTO sp VALUES (502, 1000, 'zzz')"]
def norm(rows): return [tuple(str(x) for x in r) for r in rows]
cs = {n: psycopg.connect(**a, autocommit=True) for n, a in (('pg', PG), ('nc', NC))}
bad = 0; n = 0
for c in cs.values():
    c.execute("DELETE FROM sp"); c.execute("INSERT INTO sp VALUES " + ", ".join(f"({l.split(',')[0]}, {l.split(',')[1]}, '{l.split(',')[2]}')" for l in open('/tmp/h6/sp.csv').read().splitlines()[1:]))
for step in range(len(W) + 1):
    for rep in range(3):
        for q in Q:
            a = norm(cs['pg'].execute(q).fetchall()); b = norm(cs['nc'].execute(q).fetchall()); n += 1
            if a != b: bad += 1; print('DIFF step', step, 'rep', rep, q, '\n  pg', a[:8], '\n  nc', b[:8])
    if step < len(W):
        for c in cs.values(): c.execute(W[step])
# the clock: current_date and now() parsed once, read per statement
for q in ["SELECT current_date = CAST(now() AS DATE)", "SELECT CAST(CAST(now() AS TIMESTAMP) AS VARCHAR) < '2100-01-01'"]:
    for rep in range(3):
        print(q, cs['nc'].execute(q).fetchall())
t = [cs['nc'].execute("SELECT CAST(CAST(now() AS TIMESTAMP) AS VARCHAR)").fetchone()[0] for _ in range(3) if not time.sleep(1.1)]
print('now() over 3 runs a second apart:', t, 'distinct' if len(set(t)) == 3 else 'REPEATED')
print('queries', n, 'differing', bad)

"""Random transaction blocks (INSERT, COPY, UPDATE incl. text columns to new values and WHERE subqueries on the
same table, DELETE, savepoints, failures, SELECTs reading the block's writes), a second session committing
INSERTs between the block's statements; run on PostgreSQL 15 and numacube, every outcome and the final table compared."""
import random, sys, psycopg
PG = dict(host='/tmp/h7pg', port=55437, user='postgres', dbname='postgres')
NC = dict(host='127.0.0.1', port=int(sys.argv[1]), user='me', dbname='numacube')
SEQS = int(sys.argv[2]) if len(sys.argv) > 2 else 200
START = int(sys.argv[3]) if len(sys.argv) > 3 else 0
OTHER = '--other' in sys.argv
INIT = [l.split(',') for l in open('/tmp/h7/t.csv').read().splitlines()[1:]]
def lit(x, q=False):
    return 'NULL' if x == '' else (f"'{x}'" if q else x)
def reset(c):
    c.execute("DELETE FROM t")
    c.execute("INSERT INTO t VALUES " + ", ".join(
        f"({i}, {lit(v)}, {lit(s, True)}, {lit(d)}, {lit(dt, True)})" for i, v, s, d, dt in INIT))

W = ["v > {n}", "v < {n}", "v IS NULL", "s = '{s}'", "s > '{s}'", "s IS NULL", "d > {d}", "d <= {d}",
     "dt >= DATE '2024-01-{day:02d}'", "dt < DATE '2024-01-{day:02d}'", "id % {m} = {r}",
     "v > (SELECT avg(v) FROM t WHERE id < 5000)", "id IN (SELECT id FROM t WHERE s = '{s}' AND id < 5000)",
     "s IN (SELECT s FROM t WHERE v > {n} AND id < 5000)", "v = (SELECT max(v) FROM t WHERE id < 5000)",
     "s LIKE '{s}%'", "d BETWEEN {d} AND {d2}"]
def where(r):
    w = r.choice(W).format(n=r.randint(-50, 50), s=r.choice(['a', 'b', 'c', 'dd', 'n1', 'n2', 'ax']),
        d=r.randint(-100, 100), d2=r.randint(-100, 100), day=r.randint(1, 28), m=r.randint(2, 4), r=r.randint(0, 1))
    if r.random() < 0.3:
        w += " AND " + r.choice(["v > 0", "s IS NOT NULL", "d < 0", "id % 2 = 0"])
    return f"({w}) AND id < 5000"

def stmt(r, nextid):
    k = r.random()
    names = ['a', 'b', 'c']
    if k < 0.07: return ('sql', f"SAVEPOINT {r.choice(names)}")
    if k < 0.10: return ('sql', f"RELEASE SAVEPOINT {r.choice(names)}")
    if k < 0.15: return ('sql', f"ROLLBACK TO SAVEPOINT {r.choice(names)}")
    if k < 0.23: return ('sql', f"INSERT INTO t VALUES ({nextid()}, {r.choice(['NULL', r.randint(-50, 50)])}, {r.choice(['NULL', repr(r.choice(['a','n1','n2','zq']))])}, {r.randint(-9999,9999)/100}, DATE '2024-02-{r.randint(1,28):02d}')")
    if k < 0.27: return ('ext', "INSERT INTO t (id, v, s) VALUES (%s, %s, %s)", [nextid(), r.randint(-50, 50), r.choice(['a', 'n3', 'b'])])
    if k < 0.31: return ('copy', [(nextid(), r.randint(-50, 50), r.choice(['a', 'c', 'n4', None]), None, '2024-03-01') for _ in range(r.randint(1, 3))])
    if k < 0.40: return ('sql', f"UPDATE t SET v = v + {r.randint(-9, 9)} WHERE {where(r)}")
    if k < 0.47: return ('sql', f"UPDATE t SET s = {r.choice(['s || ' + repr(r.choice('xyz')), repr(r.choice(['n1','n2','n5','a','b'])), 'NULL', 'upper(s)'])} WHERE {where(r)}")
    if k < 0.51: return ('sql', f"UPDATE t SET d = d * {r.choice(['2', '-1', '0.5', '1.01'])}, dt = {r.choice(['dt + 1', 'NULL', chr(39)+'2024-05-05'+chr(39)])} WHERE {where(r)}")
    if k < 0.54: return ('ext', "UPDATE t SET v = %s WHERE s = %s AND id < 5000", [r.randint(-50, 50), r.choice(['a', 'b', 'n1', 'n3'])])
    if k < 0.61: return ('sql', f"DELETE FROM t WHERE {where(r)}")
    if k < 0.63: return ('ext', "DELETE FROM t WHERE v > %s AND id < 5000", [r.randint(0, 60)])
    if k < 0.68: return ('sql', r.choice(["INSERT INTO t VALUES (1, 'x', 'a', 1, NULL)", "SELECT nosuch FROM t", "UPDATE t SET v = 'q' WHERE id < 5000",
        "UPDATE t SET nosuch = 1", "UPDATE t SET v = v * 1000000000000000000 WHERE v > 5 AND id < 5000", "UPDATE t SET d = d * 100000000000 WHERE id < 5000",
        "INSERT INTO t (id, v) VALUES (9223372036854775808, 1)", "DELETE FROM t WHERE nosuch = 1", "UPDATE t SET dt = 'notadate' WHERE id < 5000"]))
    return ('sql', r.choice(["SELECT count(*), sum(v), min(s), max(s), sum(d), min(dt), max(dt) FROM t",
        "SELECT id, v, s, d, dt FROM t ORDER BY id", "SELECT s, count(*), sum(v) FROM t GROUP BY s ORDER BY s",
        f"SELECT count(*), sum(v) FROM t WHERE {where(r)}", f"SELECT id FROM t WHERE {where(r)} ORDER BY id"]))

def run(c, s):
    try:
        if s[0] == 'sql':
            cur = c.execute(s[1])
        elif s[0] == 'ext':
            cur = c.cursor().execute(s[1], s[2])
        else:
            cur = c.cursor()
            with cur.copy("COPY t (id, v, s, d, dt) FROM STDIN") as cp:
                for row in s[1]: cp.write_row(row)
        rows = cur.fetchall() if cur.description else None
        if rows is not None:
            rows = [tuple(float(x) if hasattr(x, 'as_tuple') else x for x in row) for row in rows]
        return ('ok', cur.rowcount if s[0] != 'sql' or not s[1].startswith('SELECT') else None, rows)
    except psycopg.Error as e:
        return ('err', e.sqlstate[:2] if e.sqlstate and e.sqlstate[:2] == '22' else e.sqlstate)

def sequence(seed):
    r = random.Random(seed)
    ids = [1000]
    def nextid():
        ids[0] += 1; return ids[0]
    body = []
    for _ in range(r.randint(2, 14)):
        body.append(stmt(r, nextid))
        if OTHER and r.random() < 0.3:
            body.append(('other', f"INSERT INTO t VALUES ({5000 + len(body)}, {r.randint(-50,50)}, 'o{r.randint(1,3)}', 1.5, DATE '2024-06-01')"))
    end = r.choice(['COMMIT', 'COMMIT', 'ROLLBACK', 'END'])
    return [('sql', 'BEGIN')] + body + [('sql', end)]

def main():
    conns = {}; others = {}
    for name, args in (('pg', PG), ('nc', NC)):
        c = psycopg.connect(**args, autocommit=True); conns[name] = c; reset(c)
        others[name] = psycopg.connect(**args, autocommit=True)
    bad = 0; statements = 0
    for seed in range(START, START + SEQS):
        seq = sequence(seed)
        out = {}
        for name, c in conns.items():
            res = []
            for s in seq:
                if s[0] == 'other':
                    res.append(run(others[name], ('sql', s[1])))
                else:
                    res.append(run(c, s))
            out[name] = res
            out[name].append(('final', [tuple(float(x) if hasattr(x, 'as_tuple') else x for x in row) for row in c.execute("SELECT id, v, s, d, dt FROM t ORDER BY id, v, s, d, dt").fetchall()]))
        statements += len(seq)
        if out['pg'] != out['nc']:
            bad += 1
            print(f"seed {seed}:")
            for s, a, b in zip(seq + [('final',)], out['pg'], out['nc']):
                mark = '  ' if a == b else '!!'
                extra = ''
                if a != b and len(a) > 2 and isinstance(a[-1], list) and isinstance(b[-1], list):
                    extra = f"\n       only pg={[x for x in a[-1] if x not in b[-1]]}\n       only nc={[x for x in b[-1] if x not in a[-1]]}"
                elif a != b and a[0] == 'final' and b[0] == 'final':
                    extra = f"\n       only pg={[x for x in a[1] if x not in b[1]]}\n       only nc={[x for x in b[1] if x not in a[1]]}"
                print(f"  {mark} {s[1] if len(s) > 1 else s[0]!s:.160} {s[2] if len(s) > 2 else ''}\n       pg={str(a)[:300]}" + ("" if a == b else f"\n       nc={str(b)[:300]}") + extra)
            sys.stdout.flush()
        for c in conns.values():
            try: c.execute("ROLLBACK")
            except psycopg.Error: pass
            reset(c)
    print(f"sequences {SEQS} statements {statements} differing {bad}")
main()

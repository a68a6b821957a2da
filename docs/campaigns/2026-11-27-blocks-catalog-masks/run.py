"""Q6-shaped filters on dictionary columns (DATE, DECIMAL, BIGINT, VARCHAR) of a served table, appended to, updated
and deleted from after load, against DuckDB holding the same rows through the same statements."""
import random, sys, datetime, psycopg, duckdb
from decimal import Decimal
port = int(sys.argv[1]); N = int(sys.argv[2]); seed = int(sys.argv[3])
nc = psycopg.connect(host='127.0.0.1', port=port, user='me', dbname='numacube', autocommit=True)
dk = duckdb.connect()
dk.execute("CREATE TABLE m (id BIGINT, dt DATE, dc DECIMAL(4,2), q BIGINT, s VARCHAR, p DECIMAL(12,2))")
dk.execute("INSERT INTO m SELECT * FROM read_csv('/tmp/h7/mask/m.csv', header=true, columns={'id':'BIGINT','dt':'DATE','dc':'DECIMAL(4,2)','q':'BIGINT','s':'VARCHAR','p':'DECIMAL(12,2)'})")
r = random.Random(seed)
base = datetime.date(1994, 1, 1)
def d(k): return f"DATE '{base + datetime.timedelta(days=k)}'"
def pred(r):
    c = r.choice(['dt', 'dt', 'dc', 'dc', 'q', 'q', 's'])
    if c == 'dt':
        a = r.choice([-5, 0, 1, r.randint(0, 420), 399, 400, 450]); b = a + r.choice([0, 1, 30, 365, 500])
        return r.choice([f"dt >= {d(a)} AND dt < {d(b)}", f"dt BETWEEN {d(a)} AND {d(b)}", f"dt > {d(a)}", f"dt <= {d(a)}", f"dt < {d(a)}"])
    if c == 'dc':
        a = r.choice([-0.01, 0, 0.01, 0.05, 0.06, 0.1, 0.11, 0.095]); b = round(a + r.choice([0, 0.01, 0.02, 0.05, 0.2]), 3)
        return r.choice([f"dc BETWEEN {a} AND {b}", f"dc >= {a} AND dc <= {b}", f"dc > {a}", f"dc < {b}", f"dc BETWEEN {a} - 0.01 AND {a} + 0.01"])
    if c == 'q':
        a = r.choice([0, 1, 2, 24, 49, 50, 51, 255, 256, 257, 399, 400, 401, 500, 10**6, 10**9]); b = a + r.choice([0, 1, 10, 200])
        return r.choice([f"q < {a}", f"q <= {a}", f"q >= {a}", f"q BETWEEN {a} AND {b}", f"q > {a} AND q < {b}"])
    a = f"s{r.randint(0, 320):03d}"; b = f"s{r.randint(0, 320):03d}"
    return r.choice([f"s >= '{a}'", f"s < '{a}'", f"s BETWEEN '{a}' AND '{b}'", f"s >= '{a}' AND s < '{b}'", f"s > 'r'", f"s < 't'"])
def write(r, nextid):
    k = r.random()
    if k < 0.4:
        rows = []
        for _ in range(r.randint(1, 200)):
            dt = 'NULL' if r.random() < 0.05 else d(r.randint(-30, 600))
            dc = 'NULL' if r.random() < 0.05 else f"{r.randint(-2, 15) / 100:.2f}"
            q = 'NULL' if r.random() < 0.05 else str(r.choice([r.randint(0, 60), r.randint(0, 700), -1]))
            s = 'NULL' if r.random() < 0.05 else f"'s{r.randint(0, 330):03d}'"
            p = 'NULL' if r.random() < 0.05 else f"{r.randint(100, 999999) / 100:.2f}"
            rows.append(f"({nextid()}, {dt}, {dc}, {q}, {s}, {p})")
        return "INSERT INTO m VALUES " + ", ".join(rows)
    if k < 0.7:
        return r.choice([f"UPDATE m SET dc = {r.randint(0, 12) / 100:.2f} WHERE id % {r.randint(3, 17)} = 0",
                         f"UPDATE m SET dt = {d(r.randint(-10, 500))} WHERE q = {r.randint(1, 50)}",
                         f"UPDATE m SET q = {r.randint(0, 600)} WHERE s = 's{r.randint(0, 299):03d}'",
                         f"UPDATE m SET s = 'zz{r.randint(0, 9)}', q = NULL WHERE dc = {r.randint(0, 10) / 100:.2f} AND id % 5 = 1"])
    return r.choice([f"DELETE FROM m WHERE id % {r.randint(5, 40)} = {r.randint(0, 4)}", f"DELETE FROM m WHERE q > {r.randint(40, 500)}",
                     f"DELETE FROM m WHERE {pred(r)}"])
ids = [100000]
def nextid():
    ids[0] += 1; return ids[0]
def norm(rows):
    return [tuple(round(float(x), 6) if isinstance(x, (Decimal, float)) else x for x in row) for row in rows]
bad = 0; queries = 0; both_err = 0; only = 0
for step in range(N):
    if step % 15 == 14:
        w = write(r, nextid)
        nc.execute(w); dk.execute(w)
    preds = " AND ".join(pred(r) for _ in range(r.randint(1, 4)))
    agg = r.choice(["SUM(p * dc), count(*), SUM(q), min(dt), max(s)", "count(*)", "SUM(p), count(dc), count(q)"])
    q = r.choice([f"SELECT {agg} FROM m WHERE {preds}", f"SELECT s, {agg} FROM m WHERE {preds} GROUP BY s ORDER BY s",
                  f"SELECT q, count(*), SUM(p) FROM m WHERE {preds} GROUP BY q ORDER BY q"])
    queries += 1
    try: a = norm(nc.execute(q).fetchall()); ea = None
    except psycopg.Error as e: a = None; ea = f"{e.sqlstate} {str(e)[:150]}"
    try: b = norm(dk.execute(q).fetchall()); eb = None
    except duckdb.Error as e: b = None; eb = str(e)[:150]
    if ea and eb: both_err += 1; continue
    if ea or eb or a != b:
        bad += 1
        print(f"step {step}: {q}\n  nc={ea or str(a)[:400]}\n  dk={eb or str(b)[:400]}")
        sys.stdout.flush()
print(f"seed {seed} queries {queries} differing {bad} both-error {both_err}")

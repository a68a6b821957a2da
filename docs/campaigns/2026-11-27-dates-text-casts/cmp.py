"""Runs SQL cases on numacube (HTTP JSON), DuckDB 1.4.1 and PostgreSQL 15 and prints where they differ.

usage: cmp.py HTTP_URL PGPORT CASEFILE [--pg-only]
CASEFILE: one SQL statement per line (# comments). Table e is loaded from /tmp/hunt10/t.csv into DuckDB and PostgreSQL
with the same types numacube was given (serve.sh)."""
import json, math, sys, urllib.request, decimal, datetime
import duckdb, psycopg

SCHEMA = "id BIGINT, i INTEGER, b BIGINT, d DECIMAL(12,2), x DOUBLE, s VARCHAR, s2 VARCHAR, dt DATE, ts TIMESTAMP, f BOOLEAN"
PG_SCHEMA = SCHEMA.replace("DOUBLE", "DOUBLE PRECISION").replace("VARCHAR", "TEXT COLLATE \"C\"")

def duck():
    con = duckdb.connect()
    con.execute(f"CREATE TABLE t ({SCHEMA})")
    con.execute("INSERT INTO t SELECT * FROM read_csv('/tmp/hunt10/t.csv', header=true, nullstr='', allow_quoted_nulls=false, columns={"
                + ", ".join(f"'{c.split()[0]}': '{' '.join(c.split()[1:])}'" for c in SCHEMA.split(", ")) + "})")
    return con

def pg(port):
    con = psycopg.connect(host="/tmp/hunt10/pg", port=port, user="postgres", autocommit=True)
    con.execute("DROP TABLE IF EXISTS t")
    con.execute(f"CREATE TABLE t ({PG_SCHEMA})")
    with open("/tmp/hunt10/t.csv") as f, con.cursor().copy("COPY t FROM STDIN WITH (FORMAT csv, HEADER)") as cp:
        cp.write(f.read())
    return con

def numa(url, sql):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps({"sql": sql}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            body = json.loads(r.read(), parse_float=decimal.Decimal)
            return ("ok", [tuple(row) for row in body["rows"]], [c["type"] for c in body["columns"]])
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            err = json.loads(raw)["error"]
            return ("err", f"{e.code} {err['code']} {err['message'][:160]}", None)
        except Exception:
            return ("err", f"{e.code} NOT JSON {raw[:200]!r}", None)

def norm(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, decimal.Decimal)):
        return decimal.Decimal(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return decimal.Decimal(repr(v))
    if isinstance(v, (datetime.datetime, datetime.date)):
        return str(v).replace("T", " ")
    return str(v)

def same(a, b):
    if isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal):
        if a == b:
            return True
        return abs(a - b) <= abs(b) * decimal.Decimal("1e-12") + decimal.Decimal("1e-300")
    if isinstance(a, str) and isinstance(b, str):
        # numacube prints timestamps without trailing zero fractions, as DuckDB does
        return a == b or a.rstrip("0").rstrip(".") == b.rstrip("0").rstrip(".")
    if isinstance(a, str) and isinstance(b, decimal.Decimal):
        return False
    return a == b

def rows_same(r1, r2, ordered):
    n1 = [tuple(norm(v) for v in r) for r in r1]
    n2 = [tuple(norm(v) for v in r) for r in r2]
    if not ordered:
        key = lambda r: tuple(str(v) for v in r)
        n1, n2 = sorted(n1, key=key), sorted(n2, key=key)
    return len(n1) == len(n2) and all(len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)) for a, b in zip(n1, n2))

def run_ref(con, sql, kind):
    try:
        if kind == "pg":
            cur = con.execute(sql)
            return ("ok", cur.fetchall())
        return ("ok", con.execute(sql).fetchall())
    except Exception as e:
        return ("err", f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")

def main():
    url, port, casefile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    d, p = duck(), pg(port)
    counts = {}
    for line in open(casefile):
        sql = line.strip()
        if not sql or sql.startswith("#"):
            continue
        ordered = "ORDER BY" in sql.upper()
        n = numa(url, sql)
        dk = run_ref(d, sql, "duck")
        pq = run_ref(p, sql, "pg")
        def verdict(ref):
            if n[0] == "ok" and ref[0] == "ok":
                return "same" if rows_same(n[1], ref[1], ordered) else "DIFF"
            if n[0] == "err" and ref[0] == "err":
                return "botherr"
            return "numa-err" if n[0] == "err" else "ref-err"
        vd, vp = verdict(dk), verdict(pq)
        counts[(vd, vp)] = counts.get((vd, vp), 0) + 1
        if vd == "same" and vp in ("same", "ref-err") or vd == "botherr" and vp == "botherr":
            if "-v" not in sys.argv:
                continue
        if "INTERNAL" in str(n[1]) or "XX000" in str(n[1]) or "NOT JSON" in str(n[1]):
            vd = "CRASH " + vd
        print(f"== duck:{vd} pg:{vp}  {sql}")
        print(f"   numa: {n[1] if n[0]=='err' else n[1]}  {n[2] or ''}")
        print(f"   duck: {dk[1]}")
        print(f"   pg:   {pq[1]}")
    print(counts, file=sys.stderr)

main()

"""Runs each query (a file of lines; 'O|' = ordered) on numacube over HTTP and on DuckDB over the same Parquet files.
usage: diff.py URL FILE   prints WRONG / CRASH / refused lines; totals on stderr"""
import json, sys, urllib.request, decimal, datetime, math
import duckdb
P = '/tmp/h9/pq'
con = duckdb.connect(); con.execute("SET TimeZone='UTC'")
for v, f in [('p_snappy', 'all_snappy'), ('big', 'big')]:
    con.execute(f"CREATE VIEW {v} AS SELECT * FROM read_parquet('{P}/{f}.parquet')")
def numa(url, sql):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps({"sql": sql}).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            b = json.loads(r.read(), parse_float=decimal.Decimal)
            return "ok", b["rows"], [c["type"] for c in b["columns"]]
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            err = json.loads(raw)["error"]; return "err", f"{e.code} {err['code']} {err['message'][:200]}", None
        except Exception:
            return "err", f"{e.code} NOT JSON {raw[:200]!r}", None
def norm(v, typ=None):
    if v is None: return None
    if isinstance(v, bool): return v
    if typ == 'TIMESTAMP' and isinstance(v, str): return datetime.datetime.fromisoformat(v.replace('T', ' ')).isoformat(sep=' ')
    if isinstance(v, (int, decimal.Decimal)): return decimal.Decimal(v)
    if isinstance(v, float):
        if math.isnan(v): return "NaN"
        if math.isinf(v): return "inf"
        return decimal.Decimal(repr(v))
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None: v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return v.isoformat(sep=' ')
    if isinstance(v, datetime.date): return v.isoformat()
    return str(v)
def same(a, b):
    if isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal):
        return a == b or abs(a - b) <= abs(b) * decimal.Decimal("1e-9") + decimal.Decimal("1e-300")
    return a == b
def key(row): return tuple((x is None, str(x)) for x in row)
url, fn = sys.argv[1], sys.argv[2]
counts = {}
for line in open(fn):
    line = line.rstrip("\n")
    if not line or line.startswith("#"): continue
    ordered = line.startswith("O|"); sql = line[2:] if ordered else line
    n = numa(url, sql)
    try:
        d = ("ok", con.execute(sql).fetchall())
    except Exception as e:
        d = ("err", str(e).splitlines()[0][:200])
    if n[0] == "err":
        v = "CRASH" if ("XX000" in n[1] or "NOT JSON" in n[1] or n[1].startswith("500")) else ("both-refuse" if d[0] == "err" else "refused")
    elif d[0] == "err":
        v = "DUCK-ERR"
    else:
        a = [tuple(norm(x, t) for x, t in zip(r, n[2])) for r in n[1]]
        b = [tuple(norm(x) for x in r) for r in d[1]]
        if not ordered: a, b = sorted(a, key=key), sorted(b, key=key)
        ok = len(a) == len(b) and all(len(x) == len(y) and all(same(p, q) for p, q in zip(x, y)) for x, y in zip(a, b))
        v = "ok" if ok else "WRONG"
    counts[v] = counts.get(v, 0) + 1
    if v != "ok":
        print(f"{v}: {line}")
        if v in ("WRONG", "DUCK-ERR", "CRASH") or "-v" in sys.argv:
            print("   numa:", str(n[1])[:600]); print("   duck:", str(d[1])[:600])
        elif v == "refused": print("   numa:", n[1][:200])
print(counts, file=sys.stderr)

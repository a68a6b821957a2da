"""Compares every value numacube serves for each Parquet table with what DuckDB reads from the same file.
usage: pqcmp.py HTTP_URL NAME=FILE ...  (the server was started with --table NAME=FILE for each)"""
import json, sys, urllib.request, decimal, datetime, math
import duckdb

def numa(url, sql):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps({"sql": sql}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            body = json.loads(r.read(), parse_float=decimal.Decimal)
            return body["columns"], body["rows"]
    except urllib.error.HTTPError as e:
        return None, e.read().decode()[:300]

def norm(v):
    if v is None: return None
    if isinstance(v, bool): return v
    if isinstance(v, (int, decimal.Decimal)): return decimal.Decimal(v).normalize()
    if isinstance(v, float):
        if math.isnan(v): return "NaN"
        if math.isinf(v): return "inf" if v > 0 else "-inf"
        return decimal.Decimal(repr(v)).normalize()
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None: v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        s = v.isoformat(sep=' ')
        return s
    if isinstance(v, datetime.date): return v.isoformat()
    return str(v)

def normn(v, typ):
    if v is None: return None
    if typ == "TIMESTAMP":
        s = str(v).replace('T', ' ')
        dt = datetime.datetime.fromisoformat(s)
        return dt.isoformat(sep=' ')
    if typ in ("DOUBLE", "REAL"):
        if isinstance(v, str): return v
        return decimal.Decimal(v).normalize()
    return norm(v)

def main():
    url = sys.argv[1]
    con = duckdb.connect()
    con.execute("SET TimeZone='UTC'")
    total_vals = 0
    for arg in sys.argv[2:]:
        name, path = arg.split("=", 1)
        cols, rows = numa(url, f"SELECT * FROM {name} ORDER BY id")
        if cols is None:
            print(f"{name}: numacube error {rows}"); continue
        drows = con.execute(f"SELECT * FROM read_parquet('{path}') ORDER BY id").fetchall()
        dcols = [d[0] for d in con.description]
        ncols = [c["name"] for c in cols]
        if ncols != dcols: print(f"{name}: columns differ {ncols} vs {dcols}")
        if len(rows) != len(drows): print(f"{name}: {len(rows)} rows vs DuckDB {len(drows)}")
        bad = {}
        for r, d in zip(rows, drows):
            for j, (a, b) in enumerate(zip(r, d)):
                total_vals += 1
                na, nb = normn(a, cols[j]["type"]), norm(b)
                if cols[j]["type"] in ("DOUBLE",) and isinstance(b, float) and isinstance(na, decimal.Decimal):
                    ok = na == nb or (b == 0 and na == 0)
                else:
                    ok = na == nb
                if not ok:
                    bad.setdefault(ncols[j], []).append((r[0], a, b))
        types = {c["name"]: c["type"] for c in cols}
        print(f"{name}: {len(rows)} rows x {len(ncols)} cols; differing columns: {len(bad)}")
        for c, l in bad.items():
            print(f"   {c} ({types[c]}): {len(l)} values differ, e.g. {l[:3]}")
    print("values compared:", total_vals)
main()

"""Differential runner: numacube serve (HTTP) vs DuckDB on the same files. Usage: diff.py URL QUERYFILE|-"""
import os, json, sys, urllib.request, decimal, datetime, math, duckdb
from decimal import Decimal

T = '/work/wt-hunt5/build/tpch/sf0.01'
SMALL = {
    'a': 'id BIGINT, k BIGINT, g VARCHAR, v BIGINT, d DECIMAL(10,2), x DOUBLE, dt DATE, m INTEGER',
    'b': 'k BIGINT, name VARCHAR, w INTEGER, d2 DECIMAL(8,3)',
    'c': 'ck BIGINT, cat INTEGER', 'cn': 'ck BIGINT, cat INTEGER', 'e': 'ek BIGINT, ev BIGINT', 'f': 'fk BIGINT, fi INTEGER, fd DECIMAL(10,2), fx DOUBLE, fs VARCHAR, grp VARCHAR', 's': 'sk BIGINT, sv INTEGER, sd DECIMAL(10,2)', 'wd': 'wk INTEGER, wname VARCHAR, wv BIGINT',
}

def duck():
    con = duckdb.connect()
    for t in ['lineitem', 'orders', 'customer', 'nation', 'region', 'part', 'partsupp', 'supplier']:
        con.execute(f"CREATE TABLE {t} AS SELECT * FROM '{T}/{t}.parquet'")
    for t, cols in SMALL.items():
        con.execute(f"CREATE TABLE {t} ({cols})")
        con.execute(f"COPY {t} FROM '/tmp/h5/{t}.csv' (HEADER, NULLSTR '')")
    return con

def numacube(url, sql):
    req = urllib.request.Request(url + '/v1/query', data=sql.encode(), headers={'Content-Type': 'text/plain'})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            body = r.read().decode()
            return r.status, json.loads(body, parse_float=Decimal)
    except urllib.error.HTTPError as e:
        body = e.read().decode()
        try:
            return e.code, json.loads(body)
        except Exception:
            return e.code, {'error': {'code': '?', 'message': body[:300]}}

def canon(v, typ=None):
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        return ('f', v)
    if isinstance(v, (int, Decimal)):
        if typ == 'DOUBLE':
            return ('f', float(v))
        return ('n', Decimal(v))
    if isinstance(v, str) and typ == 'DOUBLE' and v in ('NaN', 'Infinity', '-Infinity'):
        return ('f', float(v.replace('Infinity', 'inf')))
    if isinstance(v, (datetime.date, datetime.datetime)):
        return str(v)
    if isinstance(v, decimal.Decimal):
        return ('n', v)
    return v

def eq(a, b):
    if a == b:
        return True
    if isinstance(a, tuple) and isinstance(b, tuple):
        x, y = float(a[1]), float(b[1])
        if a[0] == 'n' and b[0] == 'n':
            return False
        if math.isnan(x) and math.isnan(y):
            return True
        if os.environ.get("STRICT"):
            return x == y
        return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
    return False

def sortkey(row):
    out = []
    for v in row:
        if v is None:
            out.append((0, ''))
        elif isinstance(v, tuple):
            out.append((1, '%.9g' % float(v[1])))
        else:
            out.append((2, str(v)))
    return out

def compare(sql, ordered, url, con):
    st, nc = numacube(url, sql)
    try:
        dres = con.execute(sql)
        drows = dres.fetchall()
        derr = None
    except Exception as e:
        drows, derr = None, str(e).split('\n')[0][:200]
    if st != 200 or 'error' in nc:
        err = nc.get('error', {})
        msg = f"{err.get('code')} {err.get('message', '')[:200]}"
        if st >= 500 or err.get('code') in ('XX000', '?'):
            return 'CRASH', f'numacube {st}: {msg}; duckdb: {derr or "answers"}'
        if derr:
            return 'both-refuse', f'numacube: {msg}; duckdb: {derr}'
        return 'refused', f'numacube: {msg}'
    types = [c['type'] for c in nc['columns']]
    nrows = [[canon(v, types[i]) for i, v in enumerate(r)] for r in nc['rows']]
    if derr:
        return 'DUCK-ERR', f'numacube answers {nc["rows"][:3]} ; duckdb: {derr}'
    drows = [[canon(v) for v in r] for r in drows]
    if len(nrows) != len(drows):
        return 'WRONG', f'rows numacube={len(nrows)} duckdb={len(drows)}; n={nc["rows"][:4]} d={drows[:4]}'
    if nrows and len(nrows[0]) != len(drows[0]):
        return 'WRONG', f'columns numacube={len(nrows[0])} duckdb={len(drows[0])}'
    if not ordered:
        nrows = sorted(nrows, key=sortkey)
        drows = sorted(drows, key=sortkey)
    for i, (r1, r2) in enumerate(zip(nrows, drows)):
        for j, (x, y) in enumerate(zip(r1, r2)):
            if not eq(x, y):
                return 'WRONG', f'row {i} col {j}: numacube={x} duckdb={y}; n={r1} d={r2}'
    return 'ok', f'{len(nrows)} rows'

def main():
    url = sys.argv[1]
    src = open(sys.argv[2]) if sys.argv[2] != '-' else sys.stdin
    con = duck()
    counts = {}
    for line in src:
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        ordered = line.startswith('O|')
        sql = line[2:] if ordered else line
        try:
            verdict, detail = compare(sql, ordered, url, con)
        except Exception as e:
            verdict, detail = 'HARNESS', repr(e)[:200]
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict != 'ok':
            print(f'{verdict}\t{sql}\n\t{detail}', flush=True)
    print('COUNTS', counts)

if __name__ == '__main__':
    main()

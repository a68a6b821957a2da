"""Random queries over tables t and r on numacube (HTTP), DuckDB and PostgreSQL 15 (collation C); prints the
queries where numacube's answer differs from a reference's (or it fails with 5xx/XX000) and counts the verdicts.

usage: fuzz.py HTTP_URL PGPORT SEED N [KIND...]   KIND: like text cmp ts int (default all)"""
import json, math, sys, urllib.request, decimal, datetime, random
import duckdb, psycopg

T = "id BIGINT, i INTEGER, b BIGINT, d DECIMAL(12,2), x DOUBLE, s VARCHAR, s2 VARCHAR, dt DATE, ts TIMESTAMP, f BOOLEAN"
RS = "id BIGINT, s VARCHAR, ts TIMESTAMP, b BIGINT, n BIGINT"
def cols(schema):
    return ", ".join(f"'{c.split()[0]}': '{' '.join(c.split()[1:])}'" for c in schema.split(", "))
def duck():
    con = duckdb.connect()
    for name, sch in (("t", T), ("r", RS)):
        con.execute(f"CREATE TABLE {name} ({sch})")
        con.execute(f"INSERT INTO {name} SELECT * FROM read_csv('/tmp/hunt10/{name}.csv', header=true, nullstr='', "
                    f"allow_quoted_nulls=false, columns={{{cols(sch)}}})")
    return con
def pg(port):
    con = psycopg.connect(host="/tmp/hunt10/pg", port=port, user="postgres", autocommit=True)
    for name, sch in (("t", T), ("r", RS)):
        con.execute(f"DROP TABLE IF EXISTS {name}")
        pgs = sch.replace('DOUBLE', 'DOUBLE PRECISION').replace('VARCHAR', 'TEXT COLLATE "C"')
        con.execute(f"CREATE TABLE {name} ({pgs})")
        with open(f"/tmp/hunt10/{name}.csv") as f, con.cursor().copy(f"COPY {name} FROM STDIN WITH (FORMAT csv, HEADER)") as cp:
            cp.write(f.read())
    return con
def numa(url, sql):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps({"sql": sql}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            body = json.loads(r.read(), parse_float=decimal.Decimal)
            return ("ok", [tuple(row) for row in body["rows"]])
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            err = json.loads(raw)["error"]
            return ("err", f"{e.code} {err['code']} {err['message'][:200]}")
        except Exception:
            return ("err", f"{e.code} NOT JSON {raw[:200]!r}")
def norm(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, (int, decimal.Decimal)):
        return decimal.Decimal(v).normalize() if v == v else "NaN"
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return decimal.Decimal(repr(v)).normalize()
    if isinstance(v, datetime.datetime):
        s = v.replace(tzinfo=None).isoformat(sep=" ")
        return s
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, datetime.timedelta):
        return str(v)
    return str(v)
def nstr(v):
    if isinstance(v, str) and len(v) >= 19 and v[4] == '-' and v[10] == ' ' and v[13] == ':':
        if '.' in v:
            v = v.rstrip('0').rstrip('.')
        return v
    return v
def canon(rows, ordered):
    out = [tuple(nstr(norm(v)) for v in r) for r in rows]
    for i, r in enumerate(out):
        out[i] = tuple(x.rstrip('0').rstrip('.') if isinstance(x, str) and len(x) > 19 and x[4] == '-' and x[10] == ' ' and '.' in x else x for x in r)
    return out if ordered else sorted(out, key=lambda r: tuple(str(v) for v in r))
def run_ref(con, sql):
    try:
        return ("ok", con.execute(sql).fetchall())
    except Exception as e:
        return ("err", f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")

R = None
ALPHA = ['a', 'b', 'A', '%', '_', '\\', '😀', 'ß', ' ', 'é', 'ｚ', '\ue000', '!', 'İ', 'i', 'σ', 'Σ', 'ς', '𐐨']
def lit(s):
    return "'" + s.replace("'", "''") + "'"
def rtext(n=None):
    return ''.join(R.choice(ALPHA) for _ in range(R.randint(0, 4) if n is None else n))
def pattern(esc):
    parts = []
    for _ in range(R.randint(0, 5)):
        c = R.choice(['%', '_', 'a', 'b', 'A', '😀', 'ß', '\\', '!', 'ｚ', 'σ', 'İ', 'i', ' '] + ([esc + R.choice(['%', '_', 'a', esc])] if esc else []))
        parts.append(c)
    p = ''.join(parts)
    if esc and p.endswith(esc):
        # a trailing escape is an error everywhere; escape it
        p = p + esc
        if len(p) >= 2 and p[-2] == esc and sum(1 for _ in p) and (len(p) - len(p.rstrip(esc))) % 2 == 1:
            p = p + esc
    return p
def q_like():
    esc = R.choice([None, None, '!', '%', '_', '#'])
    op = R.choice(['LIKE', 'LIKE', 'NOT LIKE', 'ILIKE', 'NOT ILIKE'])
    p = pattern(esc)
    if esc is None:
        p = p.replace('\\', '')  # PostgreSQL's default escape is \, DuckDB has none
    e = f" ESCAPE {lit(esc)}" if esc else ""
    return f"SELECT id FROM r WHERE s {op} {lit(p)}{e}", False
def q_text():
    a, b = R.randint(-3, 6), R.randint(-2, 5)
    lt = lit(rtext())
    fn = R.choice([f"substring(s, {a}, {max(b, 0)})", f"substring(s, {a})", f"left(s, {a})", f"right(s, {a})",
                   f"strpos(s, {lt})", f"position({lt} IN s)", f"lpad(s, {max(a, 0)}, {lit(rtext(R.randint(1, 2)))})",
                   f"rpad(s, {max(a, 0)}, {lit(rtext(R.randint(1, 2)))})", f"replace(s, {lit(rtext(1))}, {lt})", "reverse(s)",
                   "length(s)", "upper(s)", "lower(s)", f"s || {lt}", f"btrim(s, {lit(rtext(2))})", f"ltrim(s, {lit(rtext(2))})",
                   f"rtrim(s, {lit(rtext(2))})", "trim(s)", f"repeat(s, {max(a, 0)})", f"concat_ws({lit(rtext(1))}, s, s)",
                   f"length(upper(s))", f"upper(lower(s))", f"strpos(upper(s), {lit(rtext(1).upper())})"])
    kind = R.random()
    if kind < 0.5:
        return f"SELECT id, {fn} FROM r", False
    if kind < 0.75:
        return f"SELECT {fn} AS k, COUNT(*) FROM r GROUP BY k", False
    return f"SELECT id FROM r WHERE {fn} {R.choice(['=', '<', '>', '<>'])} {lit(rtext()) if 'length' not in fn and 'pos' not in fn else R.randint(0, 3)}", False
def q_cmp():
    lt = lit(rtext())
    c = R.choice([f"s < {lt}", f"s >= {lt}", f"s BETWEEN {lt} AND {lit(rtext())}", f"s IN ({lt}, {lit(rtext())})",
                  f"s <> {lt}", f"NOT (s > {lt})", f"s IS NULL OR s < {lt}"])
    kind = R.random()
    if kind < 0.4:
        return f"SELECT id FROM r WHERE {c}", False
    if kind < 0.7:
        d = R.choice(['', ' DESC']) + R.choice(['', ' NULLS FIRST', ' NULLS LAST'])
        return f"SELECT s, id FROM r ORDER BY s{d}, id LIMIT {R.randint(1, 40)}", True
    agg = R.choice(['MIN(s)', 'MAX(s)', 'COUNT(DISTINCT s)', 'MAX(upper(s))', 'MIN(s || \'x\')'])
    return f"SELECT n, {agg} FROM r WHERE {c} GROUP BY n", False
def q_ts():
    part = R.choice(['year', 'month', 'day', 'hour', 'minute', 'second', 'millisecond', 'microsecond', 'epoch', 'dow', 'doy',
                     'week', 'isodow', 'quarter'])
    tp = R.choice(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'])
    lt = f"TIMESTAMP '{R.choice(['1969-12-31 23:59:59.5', '1970-01-01 00:00:00', '1900-01-01 00:00:00.000001', '1969-12-31 00:00:00'])}'"
    unit = R.choice(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'])
    e = R.choice([f"EXTRACT({part} FROM ts)", f"date_trunc('{tp}', ts)", "CAST(ts AS DATE)", "CAST(ts AS VARCHAR)",
                  f"ts + INTERVAL '{R.randint(-40, 40)}' {unit}", f"CAST(ts AS DATE) - DATE '1970-01-01'",
                  f"strftime(ts, '%Y-%m-%d %H:%M:%S.%f %j')", f"date_part('{part}', ts)",
                  f"CAST(ts AS DATE) + {R.randint(-400, 400)}", f"date_trunc('{tp}', CAST(ts AS DATE))"])
    kind = R.random()
    if kind < 0.45:
        return f"SELECT id, {e} FROM r", False
    if kind < 0.7:
        return f"SELECT {e} AS k, COUNT(*) FROM r GROUP BY k", False
    c = R.choice([f"ts < {lt}", f"CAST(ts AS DATE) = DATE '1969-12-31'", f"ts >= DATE '1969-12-31'", f"date_trunc('{tp}', ts) = {lt}",
                  f"ts BETWEEN DATE '1969-01-01' AND {lt}", f"EXTRACT({part} FROM ts) > {R.randint(0, 30)}"])
    return f"SELECT id FROM r WHERE {c}", False
def q_int():
    op = R.choice(['+', '-', '*', '%', '/'])
    k = R.choice([1, 2, -1, 3, 7, -7, 2**31, 4611686018427387904])
    e = R.choice([f"b {op} {k}", f"n {op} {k}", f"b {op} n", f"n {op} b", f"abs(b)", f"-b", f"b % n", f"mod(b, n)", f"n * n * n"])
    kind = R.random()
    w = R.choice(['', ' WHERE n <> 0', ' WHERE abs(b) < 1000000', ' WHERE b > 0', ' WHERE n > 0 AND abs(b) < 3000000000'])
    if kind < 0.5:
        return f"SELECT id, {e} FROM r{w}", False
    if kind < 0.75:
        return f"SELECT SUM({e}), COUNT({e}) FROM r{w}", False
    return f"SELECT id FROM r WHERE {e} > 0" + (w.replace(' WHERE', ' AND') if w else ''), False
KINDS = {'like': q_like, 'text': q_text, 'cmp': q_cmp, 'ts': q_ts, 'int': q_int}

def main():
    global R
    url, port, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    kinds = [k for k in sys.argv[5:] if k not in ("-v", "-a")] or list(KINDS)
    R = random.Random(seed)
    d, p = duck(), pg(port)
    counts = {}
    for _ in range(n):
        sql, ordered = KINDS[R.choice(kinds)]()
        nm, dk, pq = numa(url, sql), run_ref(d, sql), run_ref(p, sql)
        if nm[0] == 'ok':
            cn = canon(nm[1], ordered)
            dv = dk[0] == 'ok' and canon(dk[1], ordered) == cn
            pv = pq[0] == 'ok' and canon(pq[1], ordered) == cn
            if dv or pv:
                v = 'equal' + ('' if dv and pv else ' (duck only)' if dv else ' (pg only)')
            elif dk[0] == 'err' and pq[0] == 'err':
                v = 'ANSWERED where both refuse'
            else:
                v = 'WRONG?'
        else:
            if '500' in nm[1][:3] or 'XX000' in nm[1] or 'NOT JSON' in nm[1]:
                v = 'CRASH'
            elif dk[0] == 'err' and pq[0] == 'err':
                v = 'both refuse'
            else:
                v = 'refused'
        counts[v] = counts.get(v, 0) + 1
        if v in ('WRONG?', 'CRASH', 'ANSWERED where both refuse') or (v == 'refused' and '-v' in sys.argv) or (v.startswith('equal (') and '-a' in sys.argv):
            print(f"== {v}  {sql}")
            print(f"   numa: {nm[1] if nm[0] == 'err' else canon(nm[1], ordered)[:12]}")
            print(f"   duck: {dk[1] if dk[0] == 'err' else canon(dk[1], ordered)[:12]}")
            print(f"   pg:   {pq[1] if pq[0] == 'err' else canon(pq[1], ordered)[:12]}")
    print(counts, file=sys.stderr)
main()

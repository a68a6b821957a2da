"""The same values over pgwire with psycopg, text and binary results, compared with the HTTP answer.
usage: wire.py URL PGPORT"""
import decimal, json, sys, urllib.request
import psycopg

url, port = sys.argv[1], int(sys.argv[2])
QUERIES = [
    "SELECT id, b, d, d4, x FROM e WHERE id < 13 ORDER BY id",
    "SELECT -0.0::DOUBLE, CAST('NaN' AS DOUBLE), CAST('-inf' AS DOUBLE), 1e-310::DOUBLE, 4.9e-324::DOUBLE",
    "SELECT 9223372036854775807, -9223372036854775808, 9007199254740993",
    "SELECT 0.00, -0.00, 1.50, CAST(-0.001 AS DECIMAL(18,2)), CAST(0.5 AS DECIMAL(18,0)), 99999999999999.9999",
    "SELECT dt, ts FROM e WHERE id < 13 ORDER BY id",
    "SELECT s FROM e WHERE id >= 1000 ORDER BY id",
    "SELECT SUM(d), AVG(d), SUM(d4), AVG(i), COUNT(*) FROM e WHERE id < 13",
    "SELECT TRUE, FALSE, NULL::BOOLEAN, id > 5 FROM e WHERE id < 3 ORDER BY id",
]

def http(sql):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps({"sql": sql}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return [list(x) for x in json.loads(r.read(), parse_float=decimal.Decimal)["rows"]]
    except urllib.error.HTTPError as e:
        return "ERR " + e.read().decode()[:200]

for binary in (False, True):
    with psycopg.connect(host="127.0.0.1", port=port, user="u", dbname="numacube", autocommit=True) as con:
        for q in QUERIES:
            try:
                cur = con.cursor(binary=binary)
                rows = cur.execute(q).fetchall()
                types = [(d.name, d.type_code) for d in cur.description]
                out = [list(r) for r in rows]
            except Exception as e:
                out, types = f"ERR {type(e).__name__}: {e}", None
            print(f"{'bin' if binary else 'txt'} {q}\n   wire: {out!r}\n   http: {http(q)!r}\n   types: {types}")

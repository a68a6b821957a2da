"""The same columns of t and r over psycopg text and binary results against PostgreSQL 15's own (pre-1970 fractions,
surrogate pairs, booleans, NULLs), and parameters of those types bound both ways."""
import sys, datetime, psycopg
port, pgport = int(sys.argv[1]), int(sys.argv[2])
n = psycopg.connect(host="127.0.0.1", port=port, user="x", dbname="x", autocommit=True)
p = psycopg.connect(host="/tmp/hunt10/pg", port=pgport, user="postgres", autocommit=True)
bad = total = 0
def cmp(sql, params=None):
    global bad, total
    for binary in (False, True):
        total += 1
        try:
            a = n.cursor(binary=binary).execute(sql, params).fetchall()
        except Exception as e:
            a = f"ERR {type(e).__name__}: {str(e).splitlines()[0][:150]}"
        try:
            b = p.cursor(binary=binary).execute(sql, params).fetchall()
        except Exception as e:
            b = f"ERR {type(e).__name__}: {str(e).splitlines()[0][:150]}"
        if a != b:
            bad += 1
            print(f"== binary={binary} {sql} {params!r}\n   numa: {str(a)[:400]}\n   pg:   {str(b)[:400]}")
for q in ["SELECT id, dt, ts, f, s, s2 FROM t ORDER BY id", "SELECT id, ts, s FROM r ORDER BY id",
          "SELECT id, CAST(ts AS DATE), date_trunc('second', ts) FROM t ORDER BY id",
          "SELECT id, d, i, b FROM t ORDER BY id"]:
    cmp(q)
vals = [datetime.datetime(1969, 12, 31, 23, 59, 59, 500000), datetime.datetime(1, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
        datetime.datetime(1900, 1, 1, 0, 0, 0, 1), datetime.date(1969, 12, 31), datetime.date(1, 1, 1), datetime.date(2000, 1, 1)]
for v in vals:
    cmp("SELECT id FROM t WHERE ts = %s ORDER BY id" if isinstance(v, datetime.datetime) else "SELECT id FROM t WHERE dt = %s ORDER BY id", (v,))
    cmp("SELECT %s", (v,))
    cmp("SELECT id FROM t WHERE ts < %s ORDER BY id", (v,))
for v in ["😀", "a\\_b", "ｚ", "", "ΣΑΣ"]:
    cmp("SELECT id FROM t WHERE s = %s ORDER BY id", (v,))
    cmp("SELECT id FROM t WHERE s < %s ORDER BY id", (v,))
    cmp("SELECT id FROM t WHERE s LIKE %s ORDER BY id", (v + "%",))
    cmp("SELECT upper(%s), length(%s)", (v, v))
for v in [True, False, None]:
    cmp("SELECT id FROM t WHERE f = %s ORDER BY id", (v,))
    cmp("SELECT id FROM t WHERE f IS NOT DISTINCT FROM %s ORDER BY id", (v,))
print(f"{bad} of {total} differ", file=sys.stderr)

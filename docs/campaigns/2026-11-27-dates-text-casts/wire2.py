"""LIKE/ILIKE patterns, escapes, dates and intervals as pgwire parameters (psycopg, text and binary), numacube against
PostgreSQL 15 (expected differences: PostgreSQL's LIKE escapes with \\ by default, DuckDB's and numacube's do not)."""
import sys, datetime, psycopg
port, pgport = int(sys.argv[1]), int(sys.argv[2])
n = psycopg.connect(host="127.0.0.1", port=port, user="x", dbname="x", autocommit=True)
p = psycopg.connect(host="/tmp/hunt10/pg", port=pgport, user="postgres", autocommit=True)
bad = total = 0
def cmp(sql, params=None):
    global bad, total
    for binary in (False, True):
        total += 1
        out = []
        for con in (n, p):
            try:
                out.append(con.cursor(binary=binary).execute(sql, params).fetchall())
            except Exception as e:
                out.append(f"ERR {getattr(e.diag, 'sqlstate', None) if hasattr(e, 'diag') else ''} {str(e).splitlines()[0][:150]}")
        if out[0] != out[1]:
            bad += 1
            print(f"== binary={binary} {sql} {params!r}\n   numa: {str(out[0])[:300]}\n   pg:   {str(out[1])[:300]}")
for pat, esc in [("a!%", "!"), ("%!_%", "!"), ("a%%", "%"), ("a__", "_"), ("ab%%", "%"), ("A!_B", "!"), ("%", "!")]:
    cmp("SELECT id FROM t WHERE s LIKE %s ESCAPE %s ORDER BY id", (pat, esc))
    cmp("SELECT id FROM t WHERE s ILIKE %s ESCAPE %s ORDER BY id", (pat, esc))
    cmp("SELECT id FROM t WHERE s NOT LIKE %s ESCAPE %s ORDER BY id", (pat, esc))
for pat in ["a%", "%😀", "_", "__", "İ", "σ%", "%\n%"]:
    cmp("SELECT id FROM t WHERE s LIKE %s ORDER BY id", (pat,))
    cmp("SELECT id FROM t WHERE s ILIKE %s ORDER BY id", (pat,))
cmp("SELECT id FROM t WHERE ts > %s::date ORDER BY id", ("1969-12-31",))
cmp("SELECT id FROM t WHERE dt = %s::timestamp ORDER BY id", ("1969-12-31 00:00:00",))
cmp("SELECT id FROM t WHERE ts + %s::interval > TIMESTAMP '1970-01-01 00:00:00' ORDER BY id", ("1 hour",))
cmp("SELECT id FROM t WHERE ts + %s > TIMESTAMP '1970-01-01 00:00:00' ORDER BY id", (datetime.timedelta(hours=1),))
cmp("SELECT id FROM t WHERE dt + %s > DATE '1970-01-01' ORDER BY id", (1,))
cmp("SELECT id FROM t WHERE i / %s > 1 ORDER BY id", (2,))
cmp("SELECT id FROM t WHERE i %% %s = 1 ORDER BY id", (-3,))
cmp("SELECT %s::int + 1", (2147483647,))
cmp("SELECT %s::bigint + 1", (9223372036854775807,))
cmp("SELECT CAST(%s AS BOOLEAN)", ("yes",))
cmp("SELECT CAST(%s AS DATE)", ("1969-12-31",))
cmp("SELECT upper(%s), lower(%s), length(%s)", ("straße", "İ", "😀x"))
print(f"{bad} of {total} differ", file=sys.stderr)

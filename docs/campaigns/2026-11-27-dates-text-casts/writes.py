"""INSERT / UPDATE of values needing a conversion (text, numbers, dates, timestamps, booleans) into a table w of every
type, on numacube (pgwire) and PostgreSQL 15; each statement's outcome (SQLSTATE or the row read back) compared.
DuckDB's answers for the same statements are printed where numacube and PostgreSQL differ."""
import sys, psycopg, duckdb
port, pgport = int(sys.argv[1]), int(sys.argv[2])
n = psycopg.connect(host="127.0.0.1", port=port, user="x", dbname="x", autocommit=True)
p = psycopg.connect(host="/tmp/hunt10/pg", port=pgport, user="postgres", autocommit=True)
d = duckdb.connect()
SCH = "id BIGINT, b BIGINT, d DECIMAL(12,2), x DOUBLE, s VARCHAR, dt DATE, ts TIMESTAMP, f BOOLEAN"
p.execute("DROP TABLE IF EXISTS w"); p.execute(f"CREATE TABLE w ({SCH.replace('DOUBLE', 'DOUBLE PRECISION')})")
d.execute(f"CREATE TABLE w ({SCH})")
CASES = [
 ("b", ["1.5", "2.5", "-2.5", "2.5e0", "3.5e0", "-0.5e0", "'12'", "' 12 '", "'2.5'", "'1e3'", "1e20", "9223372036854775807",
        "-9223372036854775808", "9223372036854775807.4", "TRUE", "'abc'", "DATE '2024-01-01'", "NULL", "CAST(NULL AS VARCHAR)"]),
 ("d", ["1.005", "-1.005", "1.004999", "'1.005'", "1.005e0", "1e10", "99999999999.99", "'  3.5 '", "2", "TRUE", "'x'", "0.125e0", "-0.125e0"]),
 ("x", ["1", "'1.5'", "' nan '", "'-Infinity'", "1e308 * 10", "9007199254740993", "'1e-400'", "0.1", "'0x10'", "TRUE"]),
 ("s", ["123", "1.50", "1.5e0", "TRUE", "DATE '1969-12-31'", "TIMESTAMP '1969-12-31 23:59:59.5'", "'😀'", "E'a\\tb'", "'a' || 1",
        "-0.0e0", "1e20::DOUBLE PRECISION", "NULL"]),
 ("dt", ["'2024-2-9'", "'1969-12-31'", "TIMESTAMP '1969-12-31 12:00:00'", "TIMESTAMP '1969-12-31 23:59:59.999999'", "'1969-12-31 12:00:00'",
         "'0001-01-01'", "'9999-12-31'", "'0000-12-31'", "'2024-02-30'", "20240101", "'20240101'", "' 2024-01-01 '", "DATE '2024-01-01' + 1",
         "TIMESTAMP '1900-01-01 00:00:00.000001'"]),
 ("ts", ["'1969-12-31 23:59:59.5'", "DATE '1969-12-31'", "'1969-12-31'", "'2024-01-01 24:00:00'", "'2024-01-01T10:00:00'",
         "'2024-01-01 10:00:00.1234567'", "'2024-01-01 10:00:00+02'", "'1969-12-31 23:59:59.9999995'", "'2024-13-01 00:00:00'",
         "TIMESTAMP '1969-12-31 23:59:59.5' + INTERVAL '1' HOUR", "'epoch'", "0"]),
 ("f", ["'yes'", "'off'", "'t'", "'1'", "1", "0", "'TRUE '", "' f'", "'maybe'", "NULL", "1 > 0", "'on'"]),
]
i = 0
diff = total = 0
def run(con, sql):
    try:
        con.execute(sql)
        return None
    except Exception as e:
        st = getattr(getattr(e, 'diag', None), 'sqlstate', None)
        return f"ERR {st or type(e).__name__}"
for col, vals in CASES:
    for v in vals:
        for stmt in ("insert", "update"):
            i += 1
            if stmt == "insert":
                sql = f"INSERT INTO w (id, {col}) VALUES ({i}, {v})"
            else:
                for con in (n, p, d):
                    run(con, f"INSERT INTO w (id) VALUES ({i})")
                sql = f"UPDATE w SET {col} = {v} WHERE id = {i}"
            en, ep, ed = run(n, sql), run(p, sql), run(d, sql)
            rn = n.execute(f"SELECT {col} FROM w WHERE id = {i}").fetchall()
            rp = p.execute(f"SELECT {col} FROM w WHERE id = {i}").fetchall()
            rd = d.execute(f"SELECT {col} FROM w WHERE id = {i}").fetchall()
            total += 1
            a, b, c = en or rn, ep or rp, ed or rd
            same = (a == b) or (en and ep)
            if not same:
                diff += 1
                print(f"== {'both-ok ' if not en and not ep else ''}{sql}\n   numa: {a}\n   pg:   {b}\n   duck: {c}")
print(f"{diff} of {total} differ from PostgreSQL", file=sys.stderr)

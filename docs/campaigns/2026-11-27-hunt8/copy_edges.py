"""COPY FROM STDIN (text and csv) of one edge value per statement into numacube and PostgreSQL 15, then the stored
value read back from both. usage: copy_edges.py NUMA_PGPORT PG_PGPORT (PostgreSQL's table e as cmp.py makes it)"""
import sys
import psycopg

numa = psycopg.connect(host="127.0.0.1", port=int(sys.argv[1]), user="u", dbname="numacube", autocommit=True)
pg = psycopg.connect(host="/tmp/h8pg", port=int(sys.argv[2]), user="postgres", autocommit=True)
CASES = [  # column, text-format field, csv field
    ("b", " 5", " 5"), ("b", "5 ", "5 "), ("b", "+5", "+5"), ("b", "1e3", "1e3"), ("b", "0x10", "0x10"),
    ("b", "9223372036854775807", "9223372036854775807"), ("b", "-9223372036854775809", "-9223372036854775809"),
    ("d", "1.005", "1.005"), ("d", "-1.005", "-1.005"), ("d", "1e2", "1e2"), ("d", " 2.5 ", " 2.5 "), ("d", ".5", ".5"),
    ("d", "99999999999.99", "99999999999.99"), ("d", "NaN", "NaN"),
    ("x", "1e-400", "1e-400"), ("x", "1e400", "1e400"), ("x", "-0", "-0"), ("x", "NaN", "NaN"), ("x", "Infinity", "Infinity"),
    ("x", "4.9e-324", "4.9e-324"), ("x", "0x1p3", "0x1p3"), ("x", "  1.5", "  1.5"),
    ("dt", "2024-02-29", "2024-02-29"), ("dt", "2023-02-29", "2023-02-29"), ("dt", "20240229", "20240229"),
    ("dt", "2024-2-9", "2024-2-9"), ("dt", "0001-01-01", "0001-01-01"), ("dt", "infinity", "infinity"),
    ("ts", "2024-01-01 24:00:00", "2024-01-01 24:00:00"), ("ts", "2024-01-01T10:00:00", "2024-01-01T10:00:00"),
    ("ts", "2024-01-01 10:00:00.1234565", "2024-01-01 10:00:00.1234565"), ("ts", "2024-01-01", "2024-01-01"),
    ("ts", "2024-01-01 10:00", "2024-01-01 10:00"), ("ts", "2024-01-01 10:00:00+02", "2024-01-01 10:00:00+02"),
    ("s", "a\\tb", "a\tb"), ("s", "\\x41\\102", "AB"), ("s", "", '""'), ("s", "\\N", ""), ("s", " x ", " x "),
    ("i", "2147483648", "2147483648"), ("i", "1.0", "1.0"),
]

def run(con, col, data, csv):
    try:
        con.execute("DELETE FROM e WHERE id = 777")
        sql = f"COPY e (id, {col}) FROM STDIN" + (" (FORMAT csv)" if csv else "")
        with con.cursor().copy(sql) as cp:
            cp.write(f"777{',' if csv else chr(9)}{data}\n".encode())
        v = con.execute(f"SELECT {col}::text FROM e WHERE id = 777").fetchall() if con is pg else \
            con.execute(f"SELECT {col} FROM e WHERE id = 777").fetchall()
        return "ok " + repr(v[0][0] if v else "(none)")
    except Exception as e:
        return f"ERR {getattr(e, 'sqlstate', '')} {str(e).splitlines()[0][:90]}"

for col, text, csvf in CASES:
    for csv, data in ((False, text), (True, csvf)):
        a, b = run(numa, col, data, csv), run(pg, col, data, csv)
        same = a.split()[0] == b.split()[0] and (a.startswith("ERR") or a.replace("'", "") == b.replace("'", ""))
        print(f"{'  ' if same else '!!'} {'csv ' if csv else 'text'} {col}={data!r}\n     numa {a}\n     pg   {b}")
numa.execute("DELETE FROM e WHERE id = 777")
pg.execute("DELETE FROM e WHERE id = 777")

import sys, psycopg
port = int(sys.argv[1])
CASES = [
 ("COPY u (s) FROM STDIN WITH (FORMAT text, HEADER)", b's\nhello\n'),
 ("COPY u (s) FROM STDIN WITH (HEADER true)", b's\nhello\n'),
 ("COPY u (id, s) FROM STDIN WITH (NULL '')", b'901\t\n902\tx\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT text, NULL '')", b'903\t\\N\n'),
 ("COPY u (s) FROM STDIN WITH (DELIMITER ',')", b'a,b\n'),
 ("COPY u (id, s) FROM STDIN WITH (DELIMITER ',')", b'904,b\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, NULL '')", b'905,\n906,""\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, HEADER false)", b'907,a\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, HEADER 0)", b'908,a\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, HEADER off)", b'909,a\n'),
 ("COPY u (id, s) FROM STDIN WITH (HEADER, FORMAT csv)", b'id,s\n910,a\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, HEADER, HEADER false)", b'911,a\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, FORMAT text)", b'912,a\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv) ", b'913,a\n'),
 ("COPY u (id, s) FROM STDIN CSV", b'914,a\n'),
 ("COPY u (id, s) FROM STDIN WITH CSV NULL ''", b'915,\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, HEADER true)", b'916,a\n917,b\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, HEADER)", b''),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv)", b'918,a\n\n919,b\n'),
 ("COPY u (id, s) FROM STDIN", b'920\ta\n\n921\tb\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv)", b'922,"\\."\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv)", b'923, a \n'),
 ("COPY u (id, w) FROM STDIN WITH (FORMAT csv)", b'924, 5 \n'),
 ("COPY u (id, w) FROM STDIN", b'925\t 5 \n'),
 ("COPY u (id, w) FROM STDIN WITH (FORMAT csv)", b'926,""\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT text)", b'927\t\\\\N\n928\t\\N\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv)", b'929,\\N\n930,NULL\n'),
 ("COPY u (s, id) FROM STDIN WITH (FORMAT csv, HEADER)", b'id,s\n931,x\n'),
 ("COPY u (id) FROM STDIN WITH (FORMAT csv)", b'932\n933,\n'),
 ("COPY u (id, id) FROM STDIN WITH (FORMAT csv)", b'934,934\n'),
 ("COPY u (ID, \"s\") FROM STDIN WITH (FORMAT csv)", b'935,x\n'),
 ("COPY u(id,s) FROM STDIN WITH(FORMAT csv)", b'936,x\n'),
 ("COPY u (id, s) FROM stdin with (format CSV)", b'937,x\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, ESCAPE '\\')", b'938,"a\\"b"\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, QUOTE '\"')", b'939,"q"\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv, DELIMITER E',')", b'940,x\n'),
 ("COPY u (id, w) FROM STDIN WITH (FORMAT csv)", b'941,9223372036854775808\n'),
 ("COPY u (id, w) FROM STDIN WITH (FORMAT csv)", b'942,1.5\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT csv)", b'943,"unterminated\n'),
 ("COPY u FROM STDIN WITH (FORMAT csv)", b'944,1,x,extra\n'),
 ("COPY u FROM STDIN WITH (FORMAT csv)", b'945,1\n'),
 ("COPY u FROM STDIN", b'946\t1\n'),
 ("COPY u (id, s) FROM STDIN WITH (FORMAT text)", b'947\t\\x41\\101\\u0041\\q\n'),
]
def run(dsn, sql, data):
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("DELETE FROM u WHERE id >= 900 OR id IS NULL")
        try:
            with c.cursor() as cur:
                with cur.copy(sql) as cp:
                    if data: cp.write(data)
                r = cur.rowcount
            out = ('ok', r)
        except Exception as e:
            out = ('ERR', getattr(e, 'sqlstate', None), str(e).splitlines()[0][:150])
        rows = c.execute("SELECT id, w, s FROM u WHERE id >= 900 OR id IS NULL ORDER BY id, s").fetchall()
        c.execute("DELETE FROM u WHERE id >= 900 OR id IS NULL")
        return out, rows
same = diff = 0
for sql, data in CASES:
    a = run(f'host=127.0.0.1 port={port} user=me dbname=numacube', sql, data)
    b = run('host=/tmp/h12pg port=55412 user=postgres dbname=postgres', sql, data)
    eq = a[1] == b[1] and a[0][0] == b[0][0] and (a[0][0] == 'ERR' or a[0] == b[0])
    same += eq; diff += not eq
    print('SAME' if eq else 'DIFF', sql, repr(data)); 
    if not eq: print('   nc:', a); print('   pg:', b)
print('same', same, 'diff', diff)

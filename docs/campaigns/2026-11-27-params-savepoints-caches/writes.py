import sys, psycopg
exec(open('/tmp/h6/params.py').read().split('def run_psycopg')[0].split('exec(open')[0])
import decimal, math, datetime
NCPORT=int(sys.argv[1])
PG = dict(host='/tmp/h6pg', port=55436, user='postgres', dbname='postgres')
NC = dict(host='127.0.0.1', port=NCPORT, user='me', dbname='numacube')
exec(open('/tmp/h6/params.py').read().split('def run_psycopg')[0].split("NC = dict(host='127.0.0.1', port=NCPORT, user='me', dbname='numacube')")[1])
W=[]
def w(sql, *ps): W.append((sql, list(ps)))
cols="id,i,d,d3,x,dt,ts,s,b"
for d in ['1.005','1.015','-1.005','2.5','1e2','0.001','9999999999.99','99999999999.99','1234567890123','-0','.5','5.','1.2345678901234567890123']:
    w("INSERT INTO p (id, d) VALUES ($1, $2)", '1000', d)
    w("UPDATE p SET d = $1 WHERE id = 3", d)
for v in ['2.5','9223372036854775807','-9223372036854775808','9223372036854775808','007','1e3','']:
    w("INSERT INTO p (id, i) VALUES ($1, $2)", '1000', v)
    w("UPDATE p SET i = $1 WHERE id = 3", v)
for v in ['NaN','Infinity','1e308','1e-320','0.1','-0.0','1e400']:
    w("INSERT INTO p (id, x) VALUES ($1, $2)", '1000', v)
for v in ['2024-02-29','2023-02-29','0001-01-01','9999-12-31','2024-01-01 12:00','2024-01-01+02']:
    w("INSERT INTO p (id, dt) VALUES ($1, $2)", '1000', v)
for v in ['2024-01-09 15:51:12.1234567','2024-01-09 15:51:12.9999995','2024-01-09','2024-01-09 24:00:00','2024-01-09 15:51:12+05:30', '2024-01-09 15:51:12-08']:
    w("INSERT INTO p (id, ts) VALUES ($1, $2)", '1000', v)
for v in ['yes','0','off','TRUE',' t ','maybe']:
    w("INSERT INTO p (id, b) VALUES ($1, $2)", '1000', v)
for v in ['5',"it's",'','NULL','\\N','é€😀']:
    w("INSERT INTO p (id, s) VALUES ($1, $2)", '1000', v)
w("INSERT INTO p VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", '1000','1','1.5','2.25','3.5','2024-01-01','2024-01-01 00:00:01','z','true')
w("INSERT INTO p VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9), ($10, $2, $3, $4, $5, $6, $7, $8, $9)", '1000','1','1.5','2.25','3.5','2024-01-01','2024-01-01 00:00:01','z','true','1001')
w("INSERT INTO p (id, d, s) VALUES ($1, $2, $3)", '1000', None, None)
w("INSERT INTO p (s, id) VALUES ($1, $2)", 'q', '1000')
w("INSERT INTO p (id, d) VALUES ($1, $2 + 1)", '1000', '1.5')
w("INSERT INTO p (id, d) VALUES ($1, CAST($2 AS NUMERIC) * 2)", '1000', '1.255')
w("UPDATE p SET d = d * $1 WHERE id <= 5", '1.5')
w("UPDATE p SET d = d * $1 WHERE id <= 5", '0.333')
w("UPDATE p SET d = d + $1, i = i - $2 WHERE id <= 5", '0.005', '3')
w("UPDATE p SET x = x * $1 WHERE id <= 5", '3')
w("UPDATE p SET s = $1 || s WHERE id <= 5", 'pre-')
w("UPDATE p SET s = $1 WHERE d > $2", 'big', '500')
w("UPDATE p SET dt = $1 WHERE id = $2", '2024-12-31', '2')
w("UPDATE p SET ts = $1 WHERE dt > $2", '2020-01-01 01:02:03', '2024-10-01')
w("UPDATE p SET i = CASE WHEN i > $1 THEN $2 ELSE i END WHERE id <= 10", '0', '99')
w("UPDATE p SET d = COALESCE(d, $1) WHERE id <= 10", '7.777')
w("UPDATE p SET b = $1 WHERE s = $2", 'false', 'a')
w("UPDATE p SET d = $1 WHERE id IN ($2, $3)", '-5.5', '1', '2')
w("DELETE FROM p WHERE d > $1", '100')
w("DELETE FROM p WHERE s = $1 OR i = $2", '10', '5')
w("DELETE FROM p WHERE dt BETWEEN $1 AND $2", '2024-03-01', '2024-06-30')
w("DELETE FROM p WHERE id IN (SELECT id FROM p WHERE x > $1)", '2')
w("DELETE FROM p WHERE ts < $1", '2024-05-01 00:00:00')

def state(conn_args, sql, params):
    try:
        with psycopg.connect(**conn_args, cursor_factory=psycopg.RawCursor) as c:
            cur = c.execute(sql, params, prepare=False)
            n = cur.rowcount
            rows = c.execute(f"SELECT {cols} FROM p ORDER BY id, s").fetchall()
            c.rollback()
            return ('ok', n, normrows(rows))
    except psycopg.Error as e:
        return ('err', e.sqlstate, str(e).splitlines()[0][:160])
same=0
for sql, ps in W:
    a = state(PG, sql, ps); b = state(NC, sql, ps)
    if a == b or (a[0]=='err' and b[0]=='err'): same+=1; continue
    if a[0]=='ok' and b[0]=='ok':
        diffs=[(x,y) for x,y in zip(a[2],b[2]) if x!=y][:3]
        print('WRONG' if diffs or len(a[2])!=len(b[2]) else 'COUNT', sql, ps, a[1], b[1], len(a[2]), len(b[2]), diffs)
    else:
        print('DIFF', sql, ps, '\n  pg:', a if a[0]=='err' else a[:2], '\n  nc:', b if b[0]=='err' else b[:2])
print('writes', len(W), 'same', same)

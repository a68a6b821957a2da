"""psycopg executemany and pipeline() of UPDATE/DELETE/INSERT in autocommit with a bad statement in the middle, on
PostgreSQL 15 and numacube: the error's SQLSTATE and the table after compared."""
import sys, psycopg
exec(open('/tmp/h7/blocks.py').read().split('def where')[0].replace('int(sys.argv[1])', sys.argv[1]))
CASES = [
    ("UPDATE t SET v = %s WHERE id = %s", [(1, 1), (2, 2), ('x', 3), (4, 4)]),
    ("UPDATE t SET v = v * %s WHERE id = %s AND v IS NOT NULL", [(2, 1), (10**17, 2), (3, 3)]),
    ("DELETE FROM t WHERE id = %s", [(1,), (2,), ('zz',), (4,)]),
    ("UPDATE t SET s = %s WHERE id = %s", [('new1', 5), ('new2', 6), ('new3', 7)]),
    ("UPDATE t SET d = %s WHERE id = %s", [('1.005', 8), ('99999999999.99', 9), ('2', 10)]),
    ("INSERT INTO t (id, v, s) VALUES (%s, %s, %s)", [(500, 1, 'a'), (501, 'q', 'b'), (502, 3, 'c')]),
]
MIXED = [("UPDATE t SET v = 0 WHERE id = %s", (11,)), ("DELETE FROM t WHERE id = %s", (12,)),
         ("INSERT INTO t (id, v) VALUES (%s, %s)", (600, 6)), ("UPDATE t SET v = %s WHERE id = %s", ('bad', 13)),
         ("UPDATE t SET s = 'zzz' WHERE id = %s", (14,))]
def final(c):
    return [tuple(float(x) if hasattr(x, 'as_tuple') else x for x in r) for r in c.execute("SELECT id, v, s, d, dt FROM t ORDER BY id").fetchall()]
bad = 0
for mode in ['executemany', 'pipeline', 'pipeline-mixed', 'executemany-ok', 'pipeline-ok']:
    cases = [(None, MIXED)] if mode == 'pipeline-mixed' else CASES
    for sql, params in cases:
        out = {}
        for name, args in (('pg', PG), ('nc', NC)):
            c = psycopg.connect(**args, autocommit=True); reset(c)
            cur = c.cursor()
            try:
                if mode.startswith('executemany'):
                    ps = [p for p in params if not any(isinstance(x, str) and x in ('x', 'zz', 'q', 'bad') for x in p)] if mode.endswith('ok') else params
                    cur.executemany(sql, ps); res = ('ok', cur.rowcount)
                else:
                    with c.pipeline():
                        for item in params:
                            if sql is None: cur.execute(item[0], item[1])
                            else:
                                if mode.endswith('ok') and any(isinstance(x, str) and x in ('x', 'zz', 'q', 'bad') for x in item): continue
                                cur.execute(sql, item)
                    res = ('ok', cur.rowcount)
            except psycopg.Error as e:
                res = ('err', e.sqlstate)
            out[name] = (res, final(c))
            c.close()
        same = out['pg'] == out['nc']
        if not same:
            bad += 1
            print(f"{mode} {sql}: pg={out['pg'][0]} nc={out['nc'][0]}")
            print("   only pg:", [r for r in out['pg'][1] if r not in out['nc'][1]])
            print("   only nc:", [r for r in out['nc'][1] if r not in out['pg'][1]])
        else:
            print(f"{mode} {sql}: same {out['pg'][0]}")
print("differing", bad)

import asyncio, asyncpg, decimal, datetime, sys
D=decimal.Decimal
PG=dict(host='/tmp/h6pg', port=55436, user='postgres', database='postgres')
NC=dict(host='127.0.0.1', port=int(sys.argv[1]), user='me', database='numacube')
cases=[('d', v) for v in [D('1E+5'), D('-0.00'), D('0.005'), D('-0.015'), D('123456789.1'), D('1.10'), D('-99999.999'), D('1e-10'), D('9999999999.99')]] + \
      [('ts', v) for v in [datetime.datetime(1999,12,31,23,59,59,999999), datetime.datetime(1970,1,1), datetime.datetime(1,1,1), datetime.datetime(2262,4,12), datetime.datetime(1900,3,1,0,0,0,1)]] + \
      [('dt', v) for v in [datetime.date(1999,12,31), datetime.date(1,1,1), datetime.date(9999,12,31), datetime.date(1600,2,29)]] + \
      [('i', v) for v in [-2**63, 2**63-1, 0, -1]] + [('x', v) for v in [5e-324, -0.0, 1.7976931348623157e308]] + [('s', v) for v in ['', 'a\x01b', 'ü']]
async def run(args, col, v):
    c = await asyncpg.connect(**args)
    try:
        tr = c.transaction(); await tr.start()
        await c.execute(f"INSERT INTO p (id, {col}) VALUES ($1, $2)", 1000, v)
        r1 = await c.fetch(f"SELECT {col} FROM p WHERE id = $1", 1000)
        r2 = await c.fetch(f"SELECT count(*) FROM p WHERE {col} = $1", v)
        r3 = await c.fetch(f"SELECT count(*) FROM p WHERE {col} < $1", v)
        await tr.rollback()
        return [tuple(r) for r in r1+r2+r3]
    except Exception as e:
        return ('ERR', type(e).__name__, str(e)[:120])
    finally: await c.close()
async def m():
    for col, v in cases:
        a = await run(PG, col, v); b = await run(NC, col, v)
        if a != b: print(col, repr(v), '\n  pg', a, '\n  nc', b)
    print('done', len(cases))
asyncio.run(m())

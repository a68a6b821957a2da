import asyncio, sys, decimal, datetime, math, json
import psycopg, asyncpg
exec(open('/tmp/h6/cases.py').read())
NCPORT = int(sys.argv[1])
PG = dict(host='/tmp/h6pg', port=55436, user='postgres', dbname='postgres')
NC = dict(host='127.0.0.1', port=NCPORT, user='me', dbname='numacube')

def norm(v):
    if isinstance(v, decimal.Decimal):
        return ('N', str(v.normalize()) if v.is_finite() else str(v))
    if isinstance(v, float):
        if math.isnan(v): return ('F','nan')
        if math.isinf(v): return ('F', str(v))
        return ('N', str(decimal.Decimal(repr(v)).normalize()) if v == v else 'nan') if abs(v) < 1e15 else ('F', '%.12g' % v)
    if isinstance(v, int) and not isinstance(v, bool):
        return ('N', str(decimal.Decimal(v).normalize()))
    return ('V', str(v))

def normrows(rows):
    return [tuple(norm(v) for v in r) for r in rows]

def run_psycopg(conn_args, sql, params):
    try:
        with psycopg.connect(**conn_args, autocommit=True, cursor_factory=psycopg.RawCursor) as c:
            return ('ok', normrows(c.execute(sql, params, prepare=False).fetchall()))
    except psycopg.Error as e:
        return ('err', e.sqlstate, str(e).splitlines()[0][:150])

def apg(a):
    b=dict(a); b['database']=b.pop('dbname'); return b

def conv(typ, s):
    if s is None: return None
    t = typ.name
    if t in ('int8','int4','int2'): return int(s)
    if t == 'numeric': return decimal.Decimal(s)
    if t in ('float8','float4'): return float(s)
    if t == 'date': return datetime.date.fromisoformat(s.strip()[:10])
    if t == 'timestamp': return datetime.datetime.fromisoformat(s.strip())
    if t == 'bool': return s.strip().lower() in ('t','true','yes','on','1','y')
    return s

async def run_asyncpg(conn_args, sql, params, types=None):
    try:
        c = await asyncpg.connect(**apg(conn_args))
    except Exception as e:
        return ('err','connect',str(e))
    try:
        st = await c.prepare(sql)
        own = [t.name for t in st.get_parameters()]
        use = types or st.get_parameters()
        try:
            vals = [conv(t, s) for t, s in zip(use, params)]
        except Exception as e:
            return ('convfail', own, str(e)[:100])
        rows = await st.fetch(*vals)
        return ('ok', own, normrows([tuple(r) for r in rows]))
    except asyncpg.PostgresError as e:
        return ('err', getattr(e,'sqlstate',None), str(e)[:150])
    except Exception as e:
        return ('exc', type(e).__name__, str(e)[:150])
    finally:
        await c.close()

async def main():
    stats = {'cases':0,'same':0}
    for sql, params in C:
        pgsql = sql.replace('DOUBLE PRECISION','DOUBLE PRECISION')
        stats['cases'] += 1
        a = run_psycopg(PG, sql, params); b = run_psycopg(NC, sql, params)
        if a[0]=='err' and a[1]=='42P01':
            continue
        if a != b and not (a[0]=='err' and b[0]=='err'):
            print('PSYCOPG', sql, params, '\n   pg:', a, '\n   nc:', b)
        else: stats['same'] += 1
        # asyncpg: types and answers
        pa = await run_asyncpg(PG, sql, params)
        types = None
        if pa[0] in ('ok','convfail'):
            c = await asyncpg.connect(**apg(PG)); st = await c.prepare(sql); types = st.get_parameters(); await c.close()
        na = await run_asyncpg(NC, sql, params, types)
        if pa[0]=='ok' and na[0]=='ok':
            if pa[1] != na[1]:
                print('ATYPES', sql, params, pa[1], na[1])
            if pa[2] != na[2]:
                print('AROWS', sql, params, '\n   pg:', pa[2][:6], '\n   nc:', na[2][:6])
        elif pa[0] != na[0] and not (pa[0] in ('err','convfail') and na[0] in ('err','exc','convfail')):
            print('ASYNCPG', sql, params, '\n   pg:', pa, '\n   nc:', na)
    print(stats)
asyncio.run(main())

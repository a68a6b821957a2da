import psycopg, sys
q = """SELECT a.attname, a.atttypid, atttypmod FROM pg_catalog.pg_class ct  JOIN pg_catalog.pg_attribute a ON (ct.oid = a.attrelid)  JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)  JOIN (SELECT i.indexrelid, i.indrelid, i.indisprimary,              information_schema._pg_expandarray(i.indkey) AS keys         FROM pg_catalog.pg_index i) i  ON (a.attnum = (i.keys).x AND a.attrelid = i.indrelid)  WHERE true  AND ct.relname = E't' AND i.indisprimary  ORDER BY a.attnum """
for name, args in (('pg', dict(host='/tmp/h7pg', port=55437, user='postgres', dbname='postgres')), ('nc', dict(host='127.0.0.1', port=int(open('/tmp/h7/pgport').read()), user='me', dbname='numacube'))):
    c = psycopg.connect(**args, autocommit=True)
    for qq in [q] + sys.argv[1:]:
        try: print(name, c.execute(qq).fetchall())
        except Exception as e: print(name, 'ERR', str(e)[:200])

import psycopg, sys
Q = [
 "SELECT c.relname, a.attname, a.attnum, a.attnotnull FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid WHERE c.relname = 't' AND a.attnum > 0 ORDER BY a.attnum",
 "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid WHERE c.relname = 't' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
 "SELECT a.attname FROM pg_catalog.pg_attribute a, pg_catalog.pg_class c WHERE a.attrelid = c.oid AND c.relname = 't' AND a.attnum > 0 ORDER BY 1",
 "SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid = 't'::regclass AND a.attnum > 0 ORDER BY a.attnum",
 "SELECT attname FROM pg_attribute WHERE attrelid = (SELECT oid FROM pg_class WHERE relname = 't') AND attnum > 0 ORDER BY attnum",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' AND c.relkind = 'r'",
 "SELECT c.relname FROM pg_class c WHERE c.relname <> 't' AND c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace",
 "SELECT c.relname FROM pg_class c WHERE c.relname NOT LIKE 'm%' AND c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace",
 "SELECT relname FROM pg_class WHERE relname ILIKE 'T' AND relkind = 'r'",
 "SELECT relname FROM pg_class WHERE lower(relname) = 't' AND relkind = 'r'",
 "SELECT relname FROM pg_class WHERE relname = 't' OR relname = 'zz'",
 "SELECT relname FROM pg_class WHERE relname IN ('t') AND relkind IN ('v', 'm')",
 "SELECT c.relname, n.nspname FROM pg_class c LEFT JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 't'",
 "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'pg_catalog' AND c.relname = 't'",
 "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname <> 'public' AND c.relname = 't'",
 "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND c.relname = 't'",
 "SELECT typname, oid FROM pg_type WHERE typname = 'int8'",
 "SELECT typname, oid FROM pg_type WHERE typname = 'INT8'",
 "SELECT typname, oid FROM pg_type WHERE typname = 'bigint'",
 "SELECT typname FROM pg_type WHERE oid = 20",
 "SELECT typname FROM pg_type WHERE oid = '20'",
 "SELECT typname FROM pg_type WHERE oid = 999999",
 "SELECT typname, typlen FROM pg_type WHERE typname = 'numeric' AND typlen = 8",
 "SELECT typname FROM pg_type WHERE typname LIKE 'int%' ORDER BY 1",
 "SELECT t.typname FROM pg_type t WHERE t.typname = 'int8' AND t.typtype = 'c'",
 "SELECT t.typname FROM pg_type t WHERE t.oid = to_regtype('int')",
 "SELECT t.typname FROM pg_type t WHERE t.oid = to_regtype('integer[]')",
 "SELECT t.typname FROM pg_type t WHERE t.oid = to_regtype('varchar(10)')",
 "SELECT t.typname FROM pg_type t WHERE t.oid = to_regtype('timestamptz')",
 "SELECT t.typname FROM pg_type t WHERE t.oid = to_regtype('nosuch')",
 "SELECT t.typname FROM pg_type t WHERE t.oid = to_regtype('  int8  ')",
 "SELECT t.typname FROM pg_type t WHERE t.oid = to_regtype('public.int8')",
 "SELECT typname FROM pg_type WHERE typname = 'int8' AND typnamespace = 11",
 "SELECT typname FROM pg_type WHERE typname = 'int8' AND typnamespace = 2200",
 "SELECT c.relname, a.attname, t.typname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid JOIN pg_type t ON t.oid = a.atttypid WHERE c.relname = 't' AND a.attnum > 0 ORDER BY a.attnum",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' AND c.relhasindex",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' AND NOT c.relhasindex",
 "SELECT c.relname, c.reltuples FROM pg_class c WHERE c.relname = 't'",
 "SELECT count(*) FROM pg_class c WHERE c.relname = 't'",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' LIMIT 0",
 "SELECT a.attname, a.attnotnull FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 't' AND a.attnotnull AND a.attnum > 0",
 "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 't' AND a.attname <> 'id' AND a.attnum > 0 ORDER BY 1",
 "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 't' AND a.attnum = 2",
 "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 't' AND a.atttypid = 1700",
 "SELECT con.conname, con.contype FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid WHERE c.relname = 't'",
 "SELECT i.indexrelid, i.indisprimary FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname = 't'",
 "SELECT c.relname, i.indisprimary FROM pg_class c LEFT JOIN pg_index i ON c.oid = i.indrelid WHERE c.relname = 't'",
 "SELECT c.relname, d.description FROM pg_class c LEFT JOIN pg_description d ON d.objoid = c.oid AND d.objsubid = 0 WHERE c.relname = 't'",
 "SELECT c.relname, i.relname FROM pg_class c LEFT JOIN pg_index x ON x.indrelid = c.oid LEFT JOIN pg_class i ON i.oid = x.indexrelid WHERE c.relname = 't'",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' AND EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid)",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid)",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' AND c.oid IN (SELECT indrelid FROM pg_index)",
 "SELECT c.relname FROM pg_class c WHERE c.relname = 't' AND c.oid NOT IN (SELECT indrelid FROM pg_index)",
 "SELECT c.relname FROM pg_class c, pg_index i WHERE c.relname = 't' AND i.indrelid = c.oid",
]
for name, args in (('pg', dict(host='/tmp/h7pg', port=55437, user='postgres', dbname='postgres')), ('nc', dict(host='127.0.0.1', port=int(sys.argv[1]), user='me', dbname='numacube'))):
    c = psycopg.connect(**args, autocommit=True)
    res = []
    for q in Q:
        try: res.append(('ok', c.execute(q).fetchall()))
        except psycopg.Error as e: res.append(('err', e.sqlstate))
    globals()[name] = res
for q, a, b in zip(Q, pg, nc):
    if b[0] == 'err': mark = 'refused' if a[0] == 'ok' else 'both-err'
    else: mark = 'same' if a == b else 'WRONG'
    print(f"{mark:8} {q[:150]}" + ("" if mark in ('same', 'both-err') else f"\n     pg={str(a)[:200]}\n     nc={str(b)[:200]}"))

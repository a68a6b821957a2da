unknown conjunct: concatenation|SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname || 'x' = 'tradesx'
unknown conjunct: length()|SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND length(c.relname) = 6
unknown disjunct: OR c.oid > 0|SELECT c.relname FROM pg_catalog.pg_class c WHERE c.relname = 'trades' OR c.oid > 0
unknown conjunct: lower()|SELECT relname FROM pg_class WHERE lower(relname) = 'trades' AND relkind = 'r'
unknown conjunct: regclass|SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'kinds'::regclass AND a.attnum > 0 ORDER BY a.attnum
unknown conjunct: subquery|SELECT attname FROM pg_attribute WHERE attrelid = (SELECT oid FROM pg_class WHERE relname = 'kinds') AND attnum > 0 ORDER BY attnum
unknown conjunct: column not modelled|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relpages = 0
unknown conjunct: attnotnull|SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'kinds' AND a.attnotnull AND a.attnum > 0
readable OR of names|SELECT relname FROM pg_class WHERE relname = 'trades' OR relname = 'fx' ORDER BY relname
readable OR with a system name|SELECT relname FROM pg_class WHERE relname = 'trades' OR relname = 'pg_class' ORDER BY relname
ILIKE|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname ILIKE 'T%'
case-sensitive equality|SELECT relname FROM pg_class WHERE relname = 'TRADES'
NOT LIKE in public|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname NOT LIKE 'f%' ORDER BY 1
<> and NOT IN in public|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname <> 'trades' AND c.relname NOT IN ('fx') ORDER BY c.relname DESC
NOT (a OR b)|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT (c.relname = 'fx' OR c.relname = 'books') ORDER BY 1
every relation (system ones too)|SELECT relname FROM pg_class WHERE relkind = 'r'
a LIKE that matches system relations|SELECT relname FROM pg_class WHERE relname LIKE 'pg_cl%' ORDER BY 1
pg_namespace not public|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname <> 'public' AND c.relname = 'trades'
columns by position, attnum range|SELECT a.attname, a.attnum FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'kinds' AND a.attnum BETWEEN 2 AND 4
columns attnum comparisons|SELECT a.attname, a.attnum FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'kinds' AND a.attnum >= 2 AND a.attnum < 5 ORDER BY a.attnum DESC
columns ordered by name|SELECT a.attname FROM pg_catalog.pg_attribute a, pg_catalog.pg_class c WHERE a.attrelid = c.oid AND c.relname = 'trades' AND a.attnum > 0 ORDER BY 1
columns ordered by alias|SELECT a.attname AS col, a.attnum AS pos FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'fx' AND a.attnum > 0 ORDER BY col DESC
columns with system columns|SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'fx' ORDER BY a.attnum
system columns only|SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'fx' AND a.attnum < 0
comma join without its key|SELECT a.attname FROM pg_attribute a, pg_class c WHERE c.relname = 'fx' AND a.attnum > 0
columns by type join|SELECT a.attname, t.typname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid JOIN pg_type t ON t.oid = a.atttypid WHERE c.relname = 'fx' AND a.attnum > 0 ORDER BY a.attnum
tables across schemas by name desc|SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY c.relname DESC
order by a column not selected|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY c.oid DESC
order by an expression|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY length(c.relname), 1
LIMIT|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY 1 LIMIT 2
DISTINCT|SELECT DISTINCT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
count|SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
a user table joined|SELECT c.relname FROM pg_class c, trades t WHERE c.relname = 'fx'
pg_trigger with OR|SELECT c.relname FROM pg_class c, pg_trigger t WHERE c.relname = 'fx' OR true
UNION with a non-empty branch|SELECT t.tgname FROM pg_catalog.pg_trigger t UNION SELECT c.relname FROM pg_catalog.pg_class c WHERE c.relname = 'fx'
count of an empty catalog|SELECT count(*) FROM pg_catalog.pg_trigger t
contype under OR|SELECT c.relname, con.conname FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_constraint con ON con.conrelid = c.oid AND (con.contype = 'f' OR true) WHERE c.relname = 'fx'
visible and not pg_catalog|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE pg_catalog.pg_table_is_visible(c.oid) AND n.nspname <> 'pg_catalog' AND c.relkind IN ('r', 'p') ORDER BY c.relname NULLS FIRST
AND binds tighter than OR|SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'fx' AND n.nspname = 'pg_catalog' OR c.relname = 'trades' ORDER BY 1
a RIGHT JOIN of an empty catalog|SELECT c.relname FROM pg_catalog.pg_trigger t RIGHT JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid WHERE c.relname = 'fx'
an item that computes on a column|SELECT c.relname, c.relchecks + 1 AS checks FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = 'fx'
an item that is a function of a column|SELECT upper(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = 'fx'
a CASE over relkind|SELECT c.relname, CASE c.relkind WHEN 'v' THEN 'view' WHEN 'r' THEN 'table' END AS kind, CASE c.relkind WHEN 'v' THEN 'view' END AS other FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname IN ('fx', 'books') ORDER BY kind, 1 DESC
a CASE over relkind with another ELSE|SELECT c.relname, CASE c.relkind WHEN 'v' THEN 'view' ELSE 'x' END FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = 'fx'

SELECT c.relname FROM pg_catalog.pg_class c TABLESAMPLE SYSTEM (0) WHERE c.relname = 't';
SELECT a.attname, row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS n FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON a.attrelid = c.oid WHERE c.relname = 't' AND a.attnum > 0 AND a.attname = 'd';
SELECT count(*) FROM (SELECT conname FROM pg_catalog.pg_constraint) x;
SELECT conname FROM pg_catalog.pg_constraint;
SELECT extname FROM pg_catalog.pg_extension;
SELECT indexrelid FROM pg_catalog.pg_index WHERE NOT indisprimary;

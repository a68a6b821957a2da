-- TestCube's four tables as PostgreSQL 15 has them (no keys), in database numacube: postgresql-answers.txt was made
-- over these with run.sh (PostgreSQL 15.18, initdb --locale=C.UTF-8, a cluster of its own in /tmp/scpg, port 55461).
CREATE TABLE books (book text, desk text, region text, legal_entity text, trader text);
CREATE TABLE fx (currency text, rate_to_usd double precision);
CREATE TABLE kinds (id bigint, name text, price numeric(15,2), ts timestamp, d date, flag boolean, x double precision);
CREATE TABLE trades (trade_id bigint, desk text, book text, currency text, trade_date date, counterparty text, pnl double precision, notional double precision);
-- PgJdbcTest's rows for getPrimaryKeys, getIndexInfo and getTypeInfo were made (pgjdbc 42.7.14, Meta.java) after
-- CREATE TABLE t (id bigint PRIMARY KEY, desk text); INSERT INTO t SELECT i, 'D' || (i % 3) FROM generate_series(0,9) i; ANALYZE t;

"""SQLAlchemy over psycopg against a running `numacube serve` (part of tools/serve-check).

Usage: sqlalchemy_check.py HOST PORT

SQLAlchemy's connect runs psycopg's nested transaction (a SAVEPOINT) to look up the hstore type; pandas.read_sql asks
SQLAlchemy's has_table of its argument to tell a table's name from a query. Checks: the connect, has_table of a table
and of a query's text, the table names, and a query with bound parameters equal to psycopg's answer to the same query
with literals. Exits 0 when every check passes, 1 with the failed check on stderr otherwise.
"""
import sys

import psycopg
import sqlalchemy as sa


def check(cond, what):
    if not cond:
        print(f"sqlalchemy: FAILED: {what}", file=sys.stderr)
        sys.exit(1)


def main(host, port):
    engine = sa.create_engine(f"postgresql+psycopg://numacube@{host}:{port}/numacube")
    sql = "SELECT desk, COUNT(*) AS n, SUM(pnl) AS s FROM trades WHERE trade_id > :k GROUP BY desk ORDER BY desk"
    with engine.connect() as c:
        inspector = sa.inspect(c)
        check(inspector.has_table("trades"), "has_table('trades') is false")
        check(not inspector.has_table(sql), "has_table of a query's text is true")
        check("trades" in inspector.get_table_names(), f"table names: {inspector.get_table_names()}")
        got = [tuple(r) for r in c.execute(sa.text(sql), {"k": 1000})]
    with psycopg.connect(host=host, port=port, user="numacube", dbname="numacube", autocommit=True) as plain:
        want = [tuple(r) for r in plain.execute(sql.replace(":k", "1000")).fetchall()]
    check(got == want, f"bound query: {got[:3]} but with literals: {want[:3]}")
    print("sqlalchemy: OK: connect (a savepoint, hstore looked up), has_table of a table and of a query's text,"
          f" table names, a bound query equal to its literal form ({len(got)} rows)")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

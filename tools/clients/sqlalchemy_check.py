"""SQLAlchemy over psycopg and psycopg2 against a running `numacube serve` (part of tools/serve-check).

Usage: sqlalchemy_check.py HOST PORT

SQLAlchemy's connect runs psycopg's nested transaction (a SAVEPOINT) to look up the hstore type; pandas.read_sql asks
SQLAlchemy's has_table of its argument to tell a table's name from a query. Checks: the connect, has_table of a table
and of a query's text, the table names, and a query with bound parameters equal to psycopg's answer to the same query
with literals. Then the reflection of every table, over both drivers: get_columns (names, order and types) against the
row description of `SELECT * FROM t LIMIT 0` (another route: the wire's column types, not the catalog), no views, no
primary key (the server is started without --key), foreign keys, indexes, unique or check constraints or comments;
`Table(autoload_with=)`; and pandas.read_sql_table equal to pandas.read_sql of `SELECT *` (its DATE columns parsed to
datetime64 as pandas does for a reflected DATE). Exits 0 when every check passes, 1 with the failed check on stderr
otherwise.
"""
import re
import sys

import pandas as pd
import psycopg
import sqlalchemy as sa

# the type SQLAlchemy reflects for each wire type numacube sends (pg_type.typname), as the PostgreSQL dialect names it
REFLECTED = {"int8": "BIGINT", "text": "TEXT", "float8": "DOUBLE PRECISION", "date": "DATE",
             "timestamp": "TIMESTAMP WITHOUT TIME ZONE", "bool": "BOOLEAN", "numeric": "NUMERIC"}


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
    with psycopg.connect(host=host, port=port, user="numacube", dbname="numacube", autocommit=True) as plain:
        described = {t: wire_columns(plain, t) for t in inspector.get_table_names()}
    for driver in ("psycopg", "psycopg2"):
        reflect(sa.create_engine(f"postgresql+{driver}://numacube@{host}:{port}/numacube"), driver, described)
    print("sqlalchemy: OK: connect (a savepoint, hstore looked up), has_table of a table and of a query's text,"
          f" table names, a bound query equal to its literal form ({len(got)} rows); over psycopg and psycopg2 the"
          f" reflection of {len(described)} tables equal to their row descriptions, Table(autoload_with=),"
          " pandas.read_sql_table equal to read_sql")


def wire_columns(conn, table):
    """The columns of `SELECT * FROM table LIMIT 0` as the row description types them: (name, reflected type)."""
    cur = conn.execute(f"SELECT * FROM {table} LIMIT 0")
    out = []
    for col in cur.description:
        name = conn.adapters.types.get(col.type_code).name
        kind = REFLECTED.get(name, name)
        if name == "numeric" and col.scale is not None:
            kind = f"NUMERIC(p, {col.scale})"
        out.append((col.name, kind))
    return out


def reflect(engine, driver, described):
    inspector = sa.inspect(engine)
    check(inspector.get_view_names() == [], f"{driver}: views: {inspector.get_view_names()}")
    for table, want in described.items():
        cols = inspector.get_columns(table)
        # a result's DECIMAL column carries its scale but the engine's most digits, 18, as its precision (README)
        got = [(c["name"], re.sub(r"^NUMERIC\(\d+, ", "NUMERIC(p, ", c["type"].compile(dialect=engine.dialect)))
               for c in cols]
        check(got == want, f"{driver}: get_columns({table}): {got} but the row description says {want}")
        check(all(c["nullable"] and c["default"] is None for c in cols), f"{driver}: {table}: {cols}")
        pk = inspector.get_pk_constraint(table)
        check(pk["constrained_columns"] == [], f"{driver}: {table} has a primary key without --key: {pk}")
        for what in ("get_foreign_keys", "get_indexes", "get_unique_constraints", "get_check_constraints"):
            check(getattr(inspector, what)(table) == [], f"{driver}: {what}({table}) is not empty")
        check(inspector.get_table_comment(table) == {"text": None}, f"{driver}: {table} has a comment")
        t = sa.Table(table, sa.MetaData(), autoload_with=engine)
        check([c.name for c in t.columns] == [w[0] for w in want], f"{driver}: Table({table}) columns")
    frame = pd.read_sql_table("trades", engine)
    plain = pd.read_sql("SELECT * FROM trades", engine)
    for c in frame.columns[frame.dtypes.astype(str).str.startswith("datetime64")]:
        plain[c] = pd.to_datetime(plain[c]).astype(frame[c].dtype)
    check(frame.equals(plain), f"{driver}: read_sql_table('trades') differs from read_sql of SELECT *:"
          f" {frame.dtypes.to_dict()} {plain.dtypes.to_dict()}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

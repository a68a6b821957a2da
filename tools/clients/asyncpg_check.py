"""asyncpg against a running `numacube serve` (part of tools/serve-check).

Usage: asyncpg_check.py HOST PORT

asyncpg prepares every statement before it binds it: Parse with no parameter types, Describe, Flush (not Sync), and
then encodes each value in binary by the types the server described. So a server must infer a parameter's type from
where it stands (`trade_id > $1`: bigint) as PostgreSQL does, and answer a Flush. Each answer is checked against the
same query run by psycopg with its values written into the SQL text (no parameters), and writes are read back.
Writes use trade ids from 991001. Exits 0 when every check passes, 1 with the failed check on stderr otherwise.
"""
import asyncio
import datetime
import decimal
import sys

import asyncpg
import psycopg


def check(cond, what):
    if not cond:
        print(f"asyncpg: FAILED: {what}", file=sys.stderr)
        sys.exit(1)


# (query with $n, its arguments, the same query with the values written as literals)
QUERIES = [
    ("SELECT desk, COUNT(*) FROM trades WHERE trade_id > $1 GROUP BY desk ORDER BY desk", (50000,),
     "SELECT desk, COUNT(*) FROM trades WHERE trade_id > 50000 GROUP BY desk ORDER BY desk"),
    ("SELECT COUNT(*), SUM(pnl) FROM trades WHERE pnl > $1 AND desk = $2", (1.5, "DESK-07"),
     "SELECT COUNT(*), SUM(pnl) FROM trades WHERE pnl > 1.5 AND desk = 'DESK-07'"),
    ("SELECT COUNT(*) FROM trades WHERE trade_date >= $1", (datetime.date(2024, 6, 1),),
     "SELECT COUNT(*) FROM trades WHERE trade_date >= DATE '2024-06-01'"),
    ("SELECT trade_id, pnl * $1 FROM trades ORDER BY trade_id LIMIT $2", (2.0, 5),
     "SELECT trade_id, pnl * 2.0 FROM trades ORDER BY trade_id LIMIT 5"),
    ("SELECT COUNT(*) FROM trades WHERE trade_id IN ($1, $2, $3)", (1, 2, 99999999),
     "SELECT COUNT(*) FROM trades WHERE trade_id IN (1, 2, 99999999)"),
    ("SELECT COUNT(*) FROM trades WHERE trade_id BETWEEN $1 AND $2 AND desk LIKE $3", (10, 500, "DESK-0%"),
     "SELECT COUNT(*) FROM trades WHERE trade_id BETWEEN 10 AND 500 AND desk LIKE 'DESK-0%'"),
    ("SELECT CAST($1 AS INTEGER) + 1, $2", (41, "text"), "SELECT CAST(41 AS INTEGER) + 1, 'text'"),
]


async def run(host, port):
    conn = await asyncpg.connect(host=host, port=port, user="numacube", database="numacube")
    try:
        with psycopg.connect(host=host, port=port, user="numacube", dbname="numacube", autocommit=True) as plain:
            for sql, args, literal in QUERIES:
                got = [tuple(r) for r in await conn.fetch(sql, *args)]
                want = [tuple(r) for r in plain.execute(literal).fetchall()]
                check(got == want, f"{sql} {args}: asyncpg {got[:3]} but {literal}: {want[:3]}")
            rows = [(991001, "ASYNCPG", 1.25, datetime.date(2024, 5, 1)),
                    (991002, None, None, datetime.date(2024, 5, 2))]
            await conn.executemany(
                "INSERT INTO trades (trade_id, desk, pnl, trade_date) VALUES ($1, $2, $3, $4)", rows)
            status = await conn.execute("UPDATE trades SET pnl = $1 WHERE trade_id = $2", 3.5, 991002)
            check(status == "UPDATE 1", f"UPDATE's status: {status}")
            got = [tuple(r) for r in await conn.fetch(
                "SELECT trade_id, desk, pnl, trade_date FROM trades WHERE trade_id > $1 ORDER BY trade_id", 991000)]
            want = [rows[0], (991002, None, 3.5, datetime.date(2024, 5, 2))]
            check(got == want, f"rows written and read back: {got}")
            try:
                await conn.fetch("SELECT COUNT(*) FROM trades WHERE trade_id > $1", "not a number")
                check(False, "a text value for a bigint parameter gave no error")
            except (asyncpg.DataError, asyncpg.PostgresError, TypeError, ValueError):
                pass
            await conn.execute("DELETE FROM trades WHERE trade_id > $1", 991000)
            left = await conn.fetchval("SELECT COUNT(*) FROM trades WHERE trade_id > $1", 991000)
            check(left == 0, f"rows left after DELETE: {left}")
    finally:
        await conn.close()


def main(host, port):
    asyncio.run(run(host, port))
    print(f"asyncpg: OK: {len(QUERIES)} prepared queries equal to psycopg's literal ones (bigint, double, text, date,"
          " LIMIT, IN, BETWEEN, LIKE, CAST parameters), executemany INSERT with NULLs, UPDATE, DELETE")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

"""psycopg 3 against a running `numacube serve` (part of tools/serve-check).

Usage: psycopg_check.py HOST PORT

Creates nothing: writes rows with trade ids from 990001 into the generated `trades` table and checks every answer
against what it wrote. psycopg binds parameters server-side (the extended protocol, $1 placeholders), opens a
transaction on the first statement, and copies with COPY ... FROM STDIN, so this checks numacube as Python clients
use it. Exits 0 when every check passes, 1 with the failed check on stderr otherwise.
"""
import sys

import psycopg


def check(cond, what):
    if not cond:
        print(f"psycopg: FAILED: {what}", file=sys.stderr)
        sys.exit(1)


def main(host, port):
    with psycopg.connect(host=host, port=port, user="numacube", dbname="numacube") as conn:
        with conn.cursor() as cur:
            rows = [(990001, "PSYCOPG", 1.5), (990002, "PSYCOPG", None), (990003, None, -2.0)]
            cur.executemany("INSERT INTO trades (trade_id, desk, pnl) VALUES (%s, %s, %s)", rows)
            cur.execute("SELECT COUNT(*) FROM trades WHERE trade_id > 990000")
            check(cur.fetchone()[0] == 3, "an open transaction does not see its own INSERTs")
            with psycopg.connect(host=host, port=port, user="numacube", dbname="numacube") as other:
                seen = other.execute("SELECT COUNT(*) FROM trades WHERE trade_id > 990000").fetchone()[0]
                check(seen == 0, "INSERTs of an open transaction are visible to another session before COMMIT")
        conn.commit()
        with conn.cursor() as cur:
            cur.execute("SELECT trade_id, desk, pnl FROM trades WHERE trade_id > %s ORDER BY trade_id", (990000,))
            got = cur.fetchall()
            check([(r[0], r[1], r[2]) for r in got] == rows, f"rows read back: {got}")
            with cur.copy("COPY trades (trade_id, desk, pnl) FROM STDIN") as copy:
                copy.write_row((990004, "PSYCOPG", 4.25))
                copy.write_row((990005, "tab\there", None))
        conn.commit()
        with conn.cursor() as cur:
            cur.execute("SELECT COUNT(*), SUM(pnl) FROM trades WHERE trade_id > 990000")
            count, total = cur.fetchone()
            check(count == 5 and abs(total - 3.75) < 1e-9, f"after COPY: count={count} sum={total}")
            cur.execute("SELECT desk FROM trades WHERE trade_id = 990005")
            check(cur.fetchone()[0] == "tab\there", "COPY's escaped tab")
            cur.execute("DELETE FROM trades WHERE trade_id > 990000")
            cur.execute("SELECT COUNT(*) FROM trades WHERE trade_id > 990000")
            check(cur.fetchone()[0] == 0, "an open transaction does not see its own DELETE")
        conn.rollback()
        with conn.cursor() as cur:
            cur.execute("SELECT COUNT(*) FROM trades WHERE trade_id > 990000")
            check(cur.fetchone()[0] == 5, "a rolled-back DELETE deleted rows")
            try:
                cur.execute("SELECT nosuch FROM trades")
                check(False, "an unknown column gave no error")
            except psycopg.Error as e:
                check(e.sqlstate == "42703", f"an unknown column's SQLSTATE: {e.sqlstate}")
        conn.rollback()
        with conn.cursor() as cur:
            cur.execute(
                "SELECT column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
                ("public", "trades"),
            )
            types = dict(cur.fetchall())
            check(
                types.get("trade_id") == "bigint" and types.get("desk") == "text"
                and types.get("pnl") == "double precision",
                f"information_schema.columns of trades: {types}",
            )
            cur.execute("SELECT COUNT(*) FROM public.trades WHERE trade_id > %s", (990000,))
            check(cur.fetchone()[0] == 5, "SELECT ... FROM public.trades")
    named_cursors(host, port, "numacube", "SELECT trade_id, desk, pnl FROM trades ORDER BY trade_id")
    print("psycopg: OK: executemany INSERT with NULLs, transaction, COPY, rolled-back DELETE, SQLSTATE,"
          " information_schema.columns, public.trades, named cursors")


def named_cursors(host, port, user, query):
    """psycopg's named (server-side) cursors: DECLARE, FETCH FORWARD n, MOVE, CLOSE, WITH HOLD; rows equal to a plain
    cursor's. Also run by hand against a PostgreSQL 15 (same answers, but for the backward scroll it refuses)."""
    with psycopg.connect(host=host, port=port, user=user, dbname=user) as conn:
        expected = conn.execute(query).fetchall()
        check(len(expected) > 2500, f"named cursors need more rows than this: {len(expected)}")
        with conn.cursor("numacube_named") as cur:
            cur.itersize = 1000
            cur.execute(query)
            check(cur.fetchone() == expected[0], "named cursor: fetchone")
            check(cur.fetchmany(7) == expected[1:8], "named cursor: fetchmany(7)")
            cur.scroll(2)
            check(cur.fetchone() == expected[10], "named cursor: scroll(2) then fetchone")
            check(list(cur) == expected[11:], "named cursor: iterating over the rest, 1,000 rows a FETCH")
            check(cur.fetchall() == [], "named cursor: fetchall at its end")
        with conn.cursor("numacube_backward") as cur:
            cur.execute(query)
            cur.fetchmany(3)
            try:
                cur.scroll(-1)
                backward = "moved"
            except psycopg.Error as e:
                backward = e.sqlstate
            check(backward in ("0A000", "moved"), f"named cursor: scroll(-1) answered {backward}")
        conn.rollback()
        with conn.cursor("numacube_held", withhold=True) as cur:
            cur.execute(query)
            conn.commit()
            check(cur.fetchmany(5) == expected[:5], "WITH HOLD cursor: rows after COMMIT")
            conn.rollback()
            check(cur.fetchall() == expected[5:], "WITH HOLD cursor: rows after a later ROLLBACK")
        conn.commit()
        conn.autocommit = True
        try:
            with conn.cursor("numacube_outside") as cur:
                cur.execute(query)
            check(False, "DECLARE outside a transaction block without WITH HOLD gave no error")
        except psycopg.Error as e:
            check(e.sqlstate == "25P01", f"DECLARE outside a transaction block: {e.sqlstate}")




if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

"""The clock functions of a transaction, numacube against PostgreSQL 15, driven by the same client (psycopg 3, asyncpg).

Usage: clock_compare.py PG_PORT NUMACUBE_PORT [CASE...]

Both servers must have a table t (id BIGINT, ts TIMESTAMP, d DATE, note TEXT) holding ids 1 to 4 (numacube: serve
--table t=FILE; PostgreSQL: this script makes it). Each case returns what a client can observe without knowing the
server's clock: which of the clock values it read are equal, which later, and whether the values stored by
UPDATE ... now() equal those it read; what SHOW TimeZone prints and now()'s offset under PostgreSQL's forms of
TimeZone; which SETs of an implicit transaction survive; the same observations from both servers pass, and so does numacube's refusal
(0A000) of a case listed in REFUSABLE. Values are compared as the wall clock of the session's TimeZone (a timestamptz
converted to it). Needs psycopg 3 and asyncpg (tools/serve-check's venv has both). Exits 0 when every case agrees, 1
otherwise, printing each case's two observations and a closing 'N passed, N failed'.
"""
import asyncio
import datetime
import sys
import time
import zoneinfo

import asyncpg
import psycopg

HOST = "127.0.0.1"


def connect(port, autocommit=True):
    return psycopg.connect(host=HOST, port=port, user="postgres", dbname="postgres", autocommit=autocommit)


def wall(value, zone="UTC"):
    """A clock value as the session zone's wall clock (a naive datetime), a date as is."""
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(zoneinfo.ZoneInfo(zone)).replace(tzinfo=None)
    return value


def pattern(values):
    """Which values are equal: each value's index of the first equal one (0 0 0 for three equal values)."""
    return [values.index(v) for v in values]


def reset(conn):
    conn.execute("UPDATE t SET ts = TIMESTAMP '2020-01-01 00:00:00', d = DATE '2020-01-01', note = 'a'")


def stored(conn, column="ts"):
    return [wall(r[0]) for r in conn.execute(f"SELECT {column} FROM t ORDER BY id").fetchall()]


def results(cur):
    out = []
    while True:
        if cur.description is not None:
            out.append(cur.fetchone()[0])
        if not cur.nextset():
            return out


def simple_many(port):
    """One Query message of 30 statements: the implicit transaction's clock, the same for each."""
    with connect(port) as c:
        sql = "; ".join(["SELECT now()", "SELECT current_timestamp", "SELECT transaction_timestamp()",
                         "SELECT localtimestamp", "SELECT CAST(now() AS TIMESTAMP)"] * 6)
        got = [wall(v) for v in results(c.cursor().execute(sql))]
        return {"distinct": len(set(got))}


def simple_commit_inside(port):
    """BEGIN; ...; COMMIT; then more statements of the same Query message."""
    with connect(port) as c:
        sql = "BEGIN; SELECT now(); SELECT now(); COMMIT; SELECT now(); SELECT now(); BEGIN; SELECT now(); COMMIT"
        got = [wall(v) for v in results(c.cursor().execute(sql))]
        return {"pattern": pattern(got)}


def simple_writes(port):
    """UPDATEs reading the clock among SELECTs of one Query message store the value the SELECTs read."""
    with connect(port) as c:
        reset(c)
        sql = ("UPDATE t SET ts = now() WHERE id = 1; SELECT now(); UPDATE t SET ts = localtimestamp WHERE id = 2; "
               "UPDATE t SET d = current_date WHERE id = 3; SELECT now()")
        got = [wall(v) for v in results(c.cursor().execute(sql))]
        ts = stored(c)
        d = stored(c, "d")
        return {"selects": pattern(got), "stored=seen": [ts[0] == got[0], ts[1] == got[0], d[2] == got[0].date()]}


def explicit_block(port):
    """BEGIN, statements in several round trips with time passing, an UPDATE, COMMIT; then the next statement."""
    with connect(port, autocommit=False) as c:
        reset(c)
        c.commit()
        first = wall(c.execute("SELECT now()").fetchone()[0])
        time.sleep(0.02)
        second = wall(c.execute("SELECT current_timestamp").fetchone()[0])
        c.execute("UPDATE t SET ts = now() WHERE id = 1")
        time.sleep(0.02)
        local = c.execute("SELECT localtimestamp").fetchone()[0]
        c.commit()
        after = wall(c.execute("SELECT now()").fetchone()[0])
        c.commit()
        return {"block": [first == second, local == first, stored(c)[0] == first], "next later": after > first}


def autocommit_statements(port):
    """Statements in autocommit, one round trip each: each its own transaction."""
    with connect(port) as c:
        a = wall(c.execute("SELECT now()").fetchone()[0])
        time.sleep(0.002)
        b = wall(c.execute("SELECT now()").fetchone()[0])
        return {"later": b > a}


def pipeline_selects(port):
    """psycopg pipeline mode: Parse/Bind/Execute of five SELECTs, one Sync: one implicit transaction."""
    with connect(port) as c:
        with c.pipeline():
            curs = [c.execute(q) for q in ["SELECT now()", "SELECT now()", "SELECT current_timestamp",
                                           "SELECT localtimestamp", "SELECT now()"]]
        got = [wall(cur.fetchone()[0]) for cur in curs]
        return {"distinct": len(set(got))}


def pipeline_commit_inside(port):
    """A pipeline with a COMMIT inside: the transaction after it starts at its next message, one clock up to Sync."""
    with connect(port) as c:
        with c.pipeline():
            curs = [c.execute(q) for q in ["BEGIN", "SELECT now()", "SELECT now()", "COMMIT", "SELECT now()",
                                           "SELECT localtimestamp", "SELECT now()"]]
        got = [wall(cur.fetchone()[0]) for cur in curs if cur.description is not None]
        return {"pattern": pattern(got), "later": got[2] > got[0]}


def pipeline_mixed(port):
    """A pipeline of an UPDATE reading the clock, then SELECTs: the UPDATE stores what the SELECTs read."""
    with connect(port) as c:
        reset(c)
        with c.pipeline():
            c.execute("UPDATE t SET ts = now() WHERE id = %s", (1,))
            a = c.execute("SELECT now()")
            c.execute("UPDATE t SET ts = now() WHERE id = %s", (2,))
            b = c.execute("SELECT localtimestamp")
        seen = [wall(a.fetchone()[0]), wall(b.fetchone()[0])]
        ts = stored(c)
        return {"seen": pattern(seen), "stored=seen": [ts[0] == seen[0], ts[1] == seen[0]]}


def executemany_updates(port):
    """executemany of UPDATE ... now() in autocommit (psycopg pipelines it, one Sync): one value for all rows."""
    with connect(port) as c:
        reset(c)
        c.cursor().executemany("UPDATE t SET ts = now() WHERE id = %s", [(1,), (2,), (3,), (4,)])
        return {"distinct": len(set(stored(c)))}


def asyncpg_executemany(port):
    """asyncpg executemany (one Sync for the batch): one value for all rows."""
    async def run():
        conn = await asyncpg.connect(host=HOST, port=port, user="postgres", database="postgres")
        try:
            await conn.execute("UPDATE t SET ts = TIMESTAMP '2020-01-01 00:00:00'")
            await conn.executemany("UPDATE t SET ts = now() WHERE id = $1", [(1,), (2,), (3,), (4,)])
            rows = await conn.fetch("SELECT ts FROM t ORDER BY id")
            return {"distinct": len({r[0] for r in rows})}
        finally:
            await conn.close()
    return asyncio.run(run())


def reapplied_commit(port):
    """A block's UPDATE ... now() whose COMMIT comes after another session's commit: the value stored is the block's."""
    with connect(port) as other, connect(port, autocommit=False) as c:
        reset(other)
        seen = wall(c.execute("SELECT now()").fetchone()[0])
        time.sleep(0.02)
        c.execute("UPDATE t SET ts = now(), note = 'block' WHERE id = 1")
        c.execute("UPDATE t SET d = current_date WHERE id = 1")
        time.sleep(0.02)
        other.execute("UPDATE t SET note = 'other' WHERE id = 2")
        time.sleep(0.02)
        c.commit()
        row = c.execute("SELECT ts, d, note FROM t WHERE id = 1").fetchone()
        c.commit()
        return {"stored=seen": [wall(row[0]) == seen, row[1] == seen.date(), row[2] == "block"]}


def time_zone(port):
    """SET TimeZone: the clock read as that zone's wall clock (Kiritimati is UTC+14, a day ahead of UTC most hours)."""
    with connect(port) as c:
        c.execute("SET TimeZone = 'Pacific/Kiritimati'")
        sql = "SELECT CAST(now() AS TIMESTAMP); SELECT localtimestamp; SELECT current_date"
        got = results(c.cursor().execute(sql))
        expect = datetime.datetime.now(zoneinfo.ZoneInfo("Pacific/Kiritimati")).replace(tzinfo=None)
        return {"wall clock of the zone": [abs((got[0] - expect).total_seconds()) < 60,
                                           abs((got[1] - expect).total_seconds()) < 60, got[2] == expect.date()]}


def now_type(port):
    """SELECT now()'s value as psycopg reads it: PostgreSQL's timestamptz (an aware datetime, +14 in Kiritimati)."""
    with connect(port) as c:
        c.execute("SET TimeZone = 'Pacific/Kiritimati'")
        try:
            v = c.execute("SELECT now()").fetchone()[0]
            return {"answer": "aware" if v.tzinfo is not None else "naive", "offset": str(v.utcoffset())}
        except psycopg.Error as e:
            return {"error": e.sqlstate}


def other_clocks(port):
    """statement_timestamp() (the latest message's arrival) and clock_timestamp() (the clock at each call) in a block."""
    with connect(port, autocommit=False) as c:
        now = c.execute("SELECT now()").fetchone()[0]
        time.sleep(0.01)
        statement = c.execute("SELECT statement_timestamp()").fetchone()[0]
        first, second = c.execute("SELECT clock_timestamp(), clock_timestamp()").fetchone()
        still = c.execute("SELECT now()").fetchone()[0]
        c.rollback()
        return {"statement later than now": statement > now, "clock later": first > statement,
                "each call anew": second >= first, "now stays": still == now,
                "aware": [v.tzinfo is not None for v in (statement, first)]}


def statement_clock_simple(port):
    """One Query of several statements: statement_timestamp() is the Query's arrival, its transaction's start."""
    with connect(port) as c:
        got = results(c.cursor().execute("SELECT statement_timestamp(); SELECT now(); SELECT statement_timestamp()"))
        return {"pattern": pattern(got)}


def now_in_engine_query(port):
    """now() alone as a column of a query over a table (numacube runs it in its engine): the transaction's timestamptz."""
    with connect(port, autocommit=False) as c:
        c.execute("SET TimeZone = 'Pacific/Kiritimati'")
        now = c.execute("SELECT now()").fetchone()[0]
        out = {}
        for q in ["SELECT now() FROM t WHERE id = 1", "SELECT id, current_timestamp AS at FROM t ORDER BY id"]:
            try:
                cur = c.execute(q)
                rows = cur.fetchall()
                out[q] = [cur.description[-1].name, all(r[-1] == now for r in rows), str(rows[0][-1].utcoffset())]
            except psycopg.Error as e:
                out[q] = "error " + str(e.sqlstate)
                c.rollback()
        c.rollback()
        return out


def now_expression_in_engine_query(port):
    """now() in an expression of a result column of a query over a table: answered, or refused."""
    with connect(port) as c:
        c.execute("SET TimeZone = 'Pacific/Kiritimati'")
        out = {}
        for q in ["SELECT now() - INTERVAL '1' DAY FROM t WHERE id = 1"]:
            try:
                v = c.execute(q).fetchone()[-1]
                out[q] = "aware" if v.tzinfo is not None else "naive"
            except psycopg.Error as e:
                out[q] = "error " + str(e.sqlstate)
        return out


def now_binary(port):
    """SELECT now() in binary format: the same instant as in text."""
    with connect(port) as c:
        c.execute("SET TimeZone = 'America/St_Johns'")
        with c.transaction():
            text = c.execute("SELECT now()").fetchone()[0]
            binary = c.cursor(binary=True).execute("SELECT now()").fetchone()[0]
        return {"equal": text == binary, "offset": str(text.utcoffset())}


def insert_now(port):
    """INSERT ... VALUES (now()) in a block: the value stored is the block's clock."""
    with connect(port, autocommit=False) as c:
        try:
            seen = wall(c.execute("SELECT now()").fetchone()[0])
            c.execute("INSERT INTO t (id, ts, d, note) VALUES (9, now(), current_date, 'ins')")
            c.commit()
            row = c.execute("SELECT ts, d FROM t WHERE id = 9").fetchone()
            c.execute("DELETE FROM t WHERE id = 9")
            c.commit()
            return {"stored=seen": [wall(row[0]) == seen, row[1] == seen.date()]}
        except psycopg.Error as e:
            return {"error": e.sqlstate}


def reapplied_insert(port):
    """A block's INSERT ... now(), another session's commit, then COMMIT: the row holds the block's clock."""
    with connect(port) as other, connect(port, autocommit=False) as c:
        reset(other)
        seen = wall(c.execute("SELECT now()").fetchone()[0])
        time.sleep(0.02)
        c.execute("INSERT INTO t (id, ts, d, note) VALUES (9, now(), current_date, 'ins'), "
                  "(10, localtimestamp, NULL, 'x')")
        c.execute("UPDATE t SET note = 'upd' WHERE id = 1")
        time.sleep(0.02)
        other.execute("UPDATE t SET note = 'other' WHERE id = 2")
        c.commit()
        rows = c.execute("SELECT ts, d FROM t WHERE id >= 9 ORDER BY id").fetchall()
        c.execute("DELETE FROM t WHERE id >= 9")
        c.commit()
        return {"stored=seen": [wall(rows[0][0]) == seen, rows[0][1] == seen.date(), rows[1][0] == seen]}


def executemany_inserts(port):
    """executemany of INSERT ... now() in autocommit: one implicit transaction, one value."""
    with connect(port) as c:
        c.cursor().executemany("INSERT INTO t (id, ts) VALUES (%s, now())", [(9,), (10,), (11,)])
        got = {r[0] for r in c.execute("SELECT ts FROM t WHERE id >= 9").fetchall()}
        c.execute("DELETE FROM t WHERE id >= 9")
        return {"distinct": len(got)}


def posix_time_zone(port):
    """A POSIX TimeZone ('UTC+2' is two hours west of UTC in PostgreSQL): read as PostgreSQL reads it."""
    with connect(port) as c:
        c.execute("SET TimeZone = 'UTC+2'")
        got = c.execute("SELECT CAST(now() AS TIMESTAMP)").fetchone()[0]
        expect = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=-2))).replace(tzinfo=None)
        return {"west of UTC": abs((got - expect).total_seconds()) < 60}


ZONE_SETTINGS = ["TIME ZONE 'UTC+2'", "TIME ZONE 'utc-2'", "TIME ZONE '<+02>-02'", "TIME ZONE '+02:00'",
                 "TIME ZONE '-00:30'", "TIME ZONE 'foo+3'", "TIME ZONE 'GMT+2'", "TIME ZONE 'EST5EDT'",
                 "TIME ZONE 'est'", "TIME ZONE 'us/eastern'", "TIME ZONE 2", "TIME ZONE -3.5", "TIME ZONE '+1'",
                 "TIME ZONE 0", "TimeZone TO 2.25", "TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE",
                 "TIME ZONE INTERVAL '-05:30' HOUR TO MINUTE", "TIME ZONE INTERVAL '90 minutes'",
                 "TIME ZONE 'UTC+02:30'", "TIME ZONE '<abc>+2'", "TIME ZONE 'JST-9'", "TIME ZONE 'Etc/GMT+2'",
                 "TIME ZONE 'cet-1cest,M3.5.0,M10.5.0/3'", "TIME ZONE 'EST5EDT4'",
                 "TIME ZONE '<+11>-11<+12>,M10.1.0,M4.1.0/3'", "TIME ZONE 'UTC+2.5'"]


def zone_settings(port):
    """SET TIME ZONE in PostgreSQL's forms: what SHOW prints, now()'s offset in text, and the wall clock's agreement."""
    from psycopg.types.string import TextLoader
    out = {}
    with connect(port) as c:
        for t in ("timestamptz", "timestamp", "date"):
            c.adapters.register_loader(t, TextLoader)
        for st in ZONE_SETTINGS:
            try:
                c.execute("SET " + st)
                show = c.execute("SHOW TimeZone").fetchone()[0]
                with c.transaction():
                    now = c.execute("SELECT now()").fetchone()[0]
                    local = c.execute("SELECT localtimestamp").fetchone()[0]
                    day = c.execute("SELECT current_date").fetchone()[0]
                offset = now[len(local):] if now.startswith(local) else "wall clock differs: " + now + " " + local
                out[st] = [show, offset, local.startswith(day)]
            except psycopg.Error as e:
                out[st] = "error " + str(e.sqlstate)
    return out


def implicit_set_rolled_back(port):
    """A SET in an implicit transaction that fails is undone (simple Query, pipeline); one a COMMIT ended stays."""
    bad = "SELECT no_such_column FROM t"
    out = []
    with connect(port) as c:
        c.execute("SET TimeZone = 'UTC'")
        for sql in ["SET TimeZone = 'Asia/Tokyo'; " + bad, "SET TimeZone = 'Asia/Tokyo'; BEGIN; " + bad,
                    "SET TimeZone = 'Europe/Berlin'; COMMIT; " + bad]:
            try:
                c.execute(sql)
            except psycopg.Error:
                pass
            if c.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                c.execute("ROLLBACK")
            out.append(c.execute("SHOW TimeZone").fetchone()[0])
        for second in [bad, "SELECT 1"]:
            c.execute("SET TimeZone = 'UTC'")
            try:
                with c.pipeline():
                    c.execute("SET TimeZone = 'Asia/Tokyo'")
                    c.execute(second)
            except psycopg.Error:
                pass
            out.append(c.execute("SHOW TimeZone").fetchone()[0])
    return {"shown after": out}


def set_local_implicit(port):
    """SET LOCAL in a pipeline (warns, lasts to Sync) and in one Query of several statements (no warning)."""
    notices = []
    with connect(port) as c:
        c.add_notice_handler(lambda d: notices.append(d.sqlstate))
        c.execute("SET TimeZone = 'UTC'")
        with c.pipeline():
            c.execute("SET LOCAL TimeZone = 'Asia/Tokyo'")
            inside = c.execute("SHOW TimeZone")
        piped = [inside.fetchone()[0], c.execute("SHOW TimeZone").fetchone()[0], list(notices)]
        notices.clear()
        simple = results(c.cursor().execute("SET LOCAL TimeZone = 'Asia/Tokyo'; SHOW TimeZone"))
        simple += [c.execute("SHOW TimeZone").fetchone()[0], list(notices)]
        return {"pipeline": piped, "simple": simple}


CASES = [simple_many, simple_commit_inside, simple_writes, explicit_block, autocommit_statements, pipeline_selects,
         pipeline_commit_inside, pipeline_mixed, executemany_updates, asyncpg_executemany, reapplied_commit,
         time_zone, now_type, other_clocks, statement_clock_simple, now_in_engine_query, now_expression_in_engine_query,
         now_binary, insert_now, reapplied_insert, executemany_inserts, posix_time_zone, zone_settings,
         implicit_set_rolled_back, set_local_implicit]

# cases numacube may refuse (0A000) rather than answer as PostgreSQL does
REFUSABLE = {"now_expression_in_engine_query"}


def refused(got):
    return bool(got) and all(str(v).endswith("0A000") for v in got.values())


def setup_postgres(port):
    with connect(port) as c:
        c.execute("DROP TABLE IF EXISTS t")
        c.execute("CREATE TABLE t (id BIGINT, ts TIMESTAMP, d DATE, note TEXT)")
        c.execute("INSERT INTO t SELECT i, TIMESTAMP '2020-01-01', DATE '2020-01-01', 'a' FROM generate_series(1, 4) i")


def observe(case, port):
    try:
        return case(port)
    except Exception as e:  # an error is an observation too
        return {"error": type(e).__name__ + ": " + str(e).splitlines()[0]}


def main(pg_port, nc_port, names):
    setup_postgres(pg_port)
    failed = 0
    for case in CASES:
        if names and case.__name__ not in names:
            continue
        want, got = observe(case, pg_port), observe(case, nc_port)
        ok = want == got or (case.__name__ in REFUSABLE and refused(got))
        failed += not ok
        tag = "ok  " if want == got else "ok (refused)" if ok else "DIFF"
        print(f"{tag} {case.__name__}: postgresql {want} numacube {got}")
    print(f"{len(CASES) - failed if not names else len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]))

"""The Python peers of `numacube bench --sections peers`: ClickHouse (chDB) and Polars, and DuckDB's Python package as a
check of what the Python route itself costs.

Driven by the bench (io.numacube.bench.peer.PythonPeers) over stdin/stdout, one JSON object per line each way, so
that the bench can time numacube, DuckDB (JDBC) and these peers query by query in the same minutes:

  {"op": "load", "engine": "clickhouse", "dataDir": "...", "threads": 2}
      -> {"engine": ..., "version": ..., "layout": ..., "loadSeconds": ..., "rows": ...}
  {"op": "query", "engine": "polars", "id": "Q1", "sql": "...", "timing": {...}}
      -> {"seconds": [...], "columns": [...], "rows": [[...], ...]}
  {"op": "quit"}
A request that fails answers {"error": "..."}; the process goes on. Dates in answers are ISO text, integers JSON
integers, floats JSON numbers (repr, so exact). Each engine uses the threads it was loaded with; POLARS_MAX_THREADS
must be set by the caller before this process starts (Polars reads it once, at import).

Timing follows the bench's own rule (BenchRunner.time): warm-up runs at least `warmups` times and for at least
`warmupSeconds`, but no longer than a quarter of `budgetSeconds`; then as many timed runs as fit in the budget, at
least min(3, repetitions), at most `repetitions`. A timed run is the query and the fetch of its whole answer into
Python (Arrow for ClickHouse and DuckDB, a DataFrame for Polars); turning it into JSON is not timed.
"""

import datetime
import json
import os
import shutil
import sys
import time
import traceback

TRADES_FILE = "trades.parquet"
DIMENSIONS = ("fx", "books")


def clickhouse_load(data_dir, threads):
    import chdb
    from chdb import session

    path = os.path.join(data_dir, "chdb")
    shutil.rmtree(path, ignore_errors=True)
    s = session.Session(path)
    s.query(f"SET max_threads = {threads}")
    s.query("CREATE DATABASE IF NOT EXISTS bench")
    s.query("USE bench")
    t0 = time.perf_counter()
    # ClickHouse's guidance for such data: MergeTree sorted by the column most queries filter on (the trade date, so
    # its sparse primary index skips granules outside a date range), LowCardinality for strings with few distinct
    # values (dictionary-coded), no Nullable where the data has no NULL.
    s.query(
        "CREATE TABLE trades (trade_id Int64, desk LowCardinality(String), book LowCardinality(String),"
        " currency LowCardinality(String), trade_date Date, counterparty LowCardinality(String),"
        " pnl Float64, notional Float64) ENGINE = MergeTree ORDER BY trade_date"
    )
    s.query(f"INSERT INTO trades SELECT * FROM file('{os.path.join(data_dir, TRADES_FILE)}', Parquet)")
    s.query("OPTIMIZE TABLE trades FINAL")
    s.query(
        "CREATE TABLE fx (currency LowCardinality(String), rate_to_usd Float64) ENGINE = MergeTree ORDER BY currency"
    )
    s.query(f"INSERT INTO fx SELECT * FROM file('{os.path.join(data_dir, 'fx.parquet')}', Parquet)")
    s.query(
        "CREATE TABLE books (book LowCardinality(String), desk LowCardinality(String), region LowCardinality(String),"
        " legal_entity LowCardinality(String), trader LowCardinality(String)) ENGINE = MergeTree ORDER BY book"
    )
    s.query(f"INSERT INTO books SELECT * FROM file('{os.path.join(data_dir, 'books.parquet')}', Parquet)")
    seconds = time.perf_counter() - t0
    version = str(s.query("SELECT version()", "CSV")).strip().strip('"')
    rows = int(str(s.query("SELECT count() FROM trades", "CSV")).strip())
    set_threads = str(s.query("SELECT getSetting('max_threads')", "CSV")).strip()

    def run(sql):
        return s.query(sql, "ArrowTable")

    return {
        "engine": "clickhouse",
        "version": f"ClickHouse {version} (chdb {chdb.__version__})",
        "layout": "MergeTree ORDER BY trade_date (one part after OPTIMIZE FINAL), LowCardinality(String) for"
        f" desk, book, currency, counterparty; max_threads={set_threads}; answers fetched as Arrow",
        "loadSeconds": seconds,
        "rows": rows,
    }, run, arrow_rows


def polars_load(data_dir, threads):
    import polars as pl

    t0 = time.perf_counter()
    # Polars' guidance: the lazy API (its optimizer sees the whole query), Categorical for repeated strings, and the
    # streaming engine for large data. The frames are read into memory once; each query is a LazyFrame over them.
    trades = pl.read_parquet(os.path.join(data_dir, TRADES_FILE)).with_columns(
        pl.col("desk", "book", "currency", "counterparty").cast(pl.Categorical)
    )
    fx = pl.read_parquet(os.path.join(data_dir, "fx.parquet")).with_columns(pl.col("currency").cast(pl.Categorical))
    books = pl.read_parquet(os.path.join(data_dir, "books.parquet")).with_columns(
        pl.col("book", "desk", "region", "legal_entity", "trader").cast(pl.Categorical)
    )
    seconds = time.perf_counter() - t0
    context = pl.SQLContext(trades=trades.lazy(), fx=fx.lazy(), books=books.lazy())

    def run(sql):
        return context.execute(sql).collect(engine="streaming")

    return {
        "engine": "polars",
        "version": f"Polars {pl.__version__}",
        "layout": "in-memory DataFrames, Categorical strings; queries as SQLContext LazyFrames collected with"
        f" engine='streaming'; thread_pool_size={pl.thread_pool_size()}",
        "loadSeconds": seconds,
        "rows": trades.height,
    }, run, polars_rows


def duckdb_load(data_dir, threads):
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    t0 = time.perf_counter()
    for table in ("trades",) + DIMENSIONS:
        con.execute(f"CREATE TABLE {table} AS SELECT * FROM read_parquet('{os.path.join(data_dir, table)}.parquet')")
    seconds = time.perf_counter() - t0

    def run(sql):
        return con.sql(sql).to_arrow_table()

    return {
        "engine": "duckdb-python",
        "version": f"DuckDB {duckdb.__version__} (Python)",
        "layout": "native tables from the Parquet files (CREATE TABLE AS read_parquet), default settings;"
        " answers fetched as Arrow; a check of the Python route's own cost against DuckDB over JDBC",
        "loadSeconds": seconds,
        "rows": con.execute("SELECT count(*) FROM trades").fetchall()[0][0],
    }, run, arrow_rows


def cell(v):
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()[:10]
    return v


def arrow_rows(table):
    columns = table.column_names
    data = [table.column(i).to_pylist() for i in range(len(columns))]
    return columns, [[cell(c[r]) for c in data] for r in range(table.num_rows)]


def polars_rows(frame):
    return frame.columns, [[cell(v) for v in row] for row in frame.iter_rows()]


LOADERS = {"clickhouse": clickhouse_load, "polars": polars_load, "duckdb-python": duckdb_load}


def timed(run, sql, timing):
    start = time.perf_counter()
    one = None
    i = 0
    while True:
        elapsed = time.perf_counter() - start
        if (i >= timing["warmups"] and elapsed >= timing["warmupSeconds"]) or elapsed > timing["budgetSeconds"] / 4:
            break
        t0 = time.perf_counter()
        run(sql)
        one = time.perf_counter() - t0
        i += 1
    reps = timing["repetitions"]
    runs = reps if one is None else int(max(min(3, reps), min(reps, timing["budgetSeconds"] / max(one, 1e-9))))
    seconds = []
    answer = None
    for _ in range(runs):
        t0 = time.perf_counter()
        answer = run(sql)
        seconds.append(time.perf_counter() - t0)
    return seconds, answer


def serve():
    engines = {}
    for line in sys.stdin:
        request = json.loads(line)
        try:
            op = request["op"]
            if op == "quit":
                break
            if op == "load":
                info, run, rows_of = LOADERS[request["engine"]](request["dataDir"], request["threads"])
                engines[request["engine"]] = (run, rows_of)
                reply = info
            elif op == "query":
                run, rows_of = engines[request["engine"]]
                seconds, answer = timed(run, request["sql"], request["timing"])
                columns, rows = rows_of(answer)
                reply = {"seconds": seconds, "columns": columns, "rows": rows}
            else:
                reply = {"error": f"unknown op: op={op}"}
        except Exception as e:  # reported to the bench, which names the engine and query
            reply = {"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc(limit=3)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()

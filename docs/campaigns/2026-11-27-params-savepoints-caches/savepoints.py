"""Random transaction blocks with SAVEPOINT / RELEASE / ROLLBACK TO over INSERT, COPY, UPDATE, DELETE and failing
statements, run on PostgreSQL 15 and numacube; every statement's outcome, every read and the table after the block
are compared."""
import random, sys, psycopg
PG = dict(host='/tmp/h6pg', port=55436, user='postgres', dbname='postgres')
NC = dict(host='127.0.0.1', port=int(sys.argv[1]), user='me', dbname='numacube')
SEQS = int(sys.argv[2]) if len(sys.argv) > 2 else 200
INIT = [l.strip().split(',') for l in open('/tmp/h6/sp.csv').read().splitlines()[1:]]

def reset(c):
    c.execute("DELETE FROM sp")
    c.execute("INSERT INTO sp VALUES " + ", ".join(f"({i}, {v}, '{s}')" for i, v, s in INIT))

def stmt(r, nextid):
    k = r.random()
    names = ['a', 'b', 'c', 'A', '"B"', 'sp_1']
    if k < 0.12: return ('sql', f"SAVEPOINT {r.choice(names)}")
    if k < 0.18: return ('sql', f"RELEASE SAVEPOINT {r.choice(names)}")
    if k < 0.22: return ('sql', f"RELEASE {r.choice(names)}")
    if k < 0.32: return ('sql', f"ROLLBACK TO SAVEPOINT {r.choice(names)}")
    if k < 0.35: return ('sql', f"ROLLBACK TO {r.choice(names)}")
    if k < 0.45: return ('sql', f"INSERT INTO sp VALUES ({nextid()}, {r.randint(-50, 50)}, '{r.choice('abc')}')")
    if k < 0.50: return ('ext', "INSERT INTO sp VALUES ($1, $2, $3)", [str(nextid()), str(r.randint(-50, 50)), r.choice('abcd')])
    if k < 0.55: return ('copy', [(nextid(), r.randint(-50, 50), r.choice('ab')) for _ in range(r.randint(1, 3))])
    if k < 0.63: return ('sql', f"UPDATE sp SET v = v + {r.randint(-5, 5)} WHERE id % {r.randint(2, 4)} = {r.randint(0, 1)}")
    if k < 0.66: return ('ext', "UPDATE sp SET s = $1 WHERE v > $2", [r.choice('xyz'), str(r.randint(-50, 50))])
    if k < 0.72: return ('sql', f"DELETE FROM sp WHERE v > {r.randint(0, 60)}")
    if k < 0.74: return ('ext', "DELETE FROM sp WHERE s = $1", [r.choice('abcxyz')])
    if k < 0.78: return ('sql', r.choice(["INSERT INTO sp VALUES (1, 'x', 'a')", "SELECT nosuch FROM sp", "UPDATE sp SET v = 'q'", "INSERT INTO sp (id, nosuch) VALUES (1, 2)"]))
    if k < 0.80: return ('sql', f"INSERT INTO sp VALUES ({nextid()}, 1, 'm'); SAVEPOINT m; INSERT INTO sp VALUES ({nextid()}, 2, 'm'); ROLLBACK TO m")
    return ('sql', r.choice(["SELECT count(*), sum(v), min(s) FROM sp", "SELECT id, v, s FROM sp ORDER BY id", "SELECT s, count(*) FROM sp GROUP BY s ORDER BY s"]))

def run(c, s):
    try:
        if s[0] == 'sql':
            cur = c.execute(s[1])
        elif s[0] == 'ext':
            cur = c.cursor().execute(s[1], s[2], prepare=False)
        else:
            cur = c.cursor()
            with cur.copy("COPY sp FROM STDIN") as cp:
                for row in s[1]: cp.write_row(row)
        rows = cur.fetchall() if cur.description else None
        return ('ok', cur.rowcount if s[0] != 'sql' or not s[1].startswith('SELECT') else None, rows)
    except psycopg.Error as e:
        return ('err', e.sqlstate[:2] if e.sqlstate and e.sqlstate[:2] == '22' else e.sqlstate)

def sequence(seed):
    r = random.Random(seed)
    ids = [1000]
    def nextid():
        ids[0] += 1; return ids[0]
    body = [stmt(r, nextid) for _ in range(r.randint(2, 14))]
    end = r.choice(['COMMIT', 'COMMIT', 'ROLLBACK', 'END'])
    return [('sql', 'BEGIN')] + body + [('sql', end)]

def main():
    conns = {}
    for name, args in (('pg', PG), ('nc', NC)):
        c = psycopg.connect(**args, autocommit=True, cursor_factory=psycopg.RawCursor); conns[name] = c; reset(c)
    bad = 0; statements = 0
    for seed in range(SEQS):
        seq = sequence(seed)
        out = {}
        for name, c in conns.items():
            out[name] = [run(c, s) for s in seq]
            out[name].append(('final', c.execute("SELECT id, v, s FROM sp ORDER BY id, v, s").fetchall()))
        statements += len(seq)
        if out['pg'] != out['nc']:
            bad += 1
            print(f"seed {seed}:")
            for s, a, b in zip(seq + [('final',)], out['pg'], out['nc']):
                mark = '  ' if a == b else '!!'
                print(f"  {mark} {s[1] if len(s) > 1 else s[0]!s:.110}\n       pg={str(a)[:200]}" + ("" if a == b else f"\n       nc={str(b)[:200]}"))
        for c in conns.values():
            try: c.execute("ROLLBACK")
            except psycopg.Error: pass
            reset(c)
    print(f"sequences {SEQS} statements {statements} differing {bad}")
main()

"""Runs one statement sequence through psql (one session) against numacube and through one DuckDB connection;
compares every SELECT's rows as text. Usage: txn.py PGPORT FILE (statements separated by ';\n')."""
import subprocess, sys, duckdb
sys.path.insert(0, '/tmp/h5')
from diff import duck
port, path = sys.argv[1], sys.argv[2]
stmts = [s.strip() for s in open(path).read().split(';\n') if s.strip() and not s.strip().startswith('#')]
con = duck()
expected = []
for s in stmts:
    try:
        r = con.execute(s)
        if s.upper().startswith(('SELECT', 'WITH')):
            expected.append('|'.join('' if v is None else str(v) for v in r.fetchall()[0]))
    except Exception as e:
        expected.append('DUCKERR ' + str(e)[:100])
script = ''.join('\\echo @@\n' + s + ';\n' for s in stmts)
out = subprocess.run(['psql', '-h', '127.0.0.1', '-p', port, '-U', 'x', '-d', 'numacube', '-A', '-t', '-X', '-q',
                      '-v', 'ON_ERROR_STOP=0'], input=script, capture_output=True, text=True)
chunks = out.stdout.split('@@\n')[1:]
got = [c.strip() for st, c in zip(stmts, chunks) if st.upper().startswith(('SELECT', 'WITH'))]
out.stderr = out.stderr
sel = [s for s in stmts if s.upper().startswith(('SELECT', 'WITH'))]
bad = 0
for i, s in enumerate(sel):
    e = expected[i] if i < len(expected) else None
    g = got[i] if i < len(got) else None
    if e != g:
        bad += 1
        print(f'DIFF {s[:150]}\n   duckdb={e} numacube={g}')
print('selects', len(sel), 'diffs', bad, 'stderr:', out.stderr.strip()[:600])

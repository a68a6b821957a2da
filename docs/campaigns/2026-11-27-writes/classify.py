"""Splits run.sh's .pg / .nc outputs at each echoed statement of the script and classifies every statement:
same (tag, rows, SQLSTATE equal), refused (numacube errs where PostgreSQL answers), both-err (SQLSTATEs differ), diff."""
import re, sys
def blocks(path, stmts):
    lines = open(path).read().splitlines()
    out, cur, i = {}, None, 0
    k = 0
    for l in lines:
        if k < len(stmts) and l == stmts[k][0]:
            cur = k; out[cur] = []; k += 1
        elif cur is not None:
            out[cur].append(l)
    return out
def statements(script):
    st, buf = [], []
    for l in open(script).read().splitlines():
        if not buf and (l.startswith('--') or not l.strip()):
            continue
        buf.append(l)
        if l.rstrip().endswith(';') or l == '\\.':
            st.append(buf); buf = []
    return [s for s in st if not s[0].startswith('\\.') and not re.match(r'^[0-9a-z]+[\t,;]', s[0])]
tot = {'same': 0, 'refused': 0, 'both-err': 0, 'diff': 0}
for script in sys.argv[1:]:
    b = script[:-4]
    st = statements(script)
    pg, nc = blocks(b + '.pg', st), blocks(b + '.nc', st)
    for k, s in enumerate(st):
        if not s[0].split()[0].upper() in ('INSERT', 'UPDATE', 'DELETE', 'COPY', 'BEGIN', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'END', 'START', 'ABORT', 'WITH', 'TRUNCATE', 'MERGE', 'SELECT', 'PREPARE', 'LOCK', 'INSERT', '/*', 'INSERT', 'UPDATE') and not s[0].lower().startswith('insert'):
            continue
        p, n = pg.get(k, []), nc.get(k, [])
        norm = lambda x: [re.sub(r'\s+', ' ', l).replace('count_star()', 'count').strip() for l in x if l.strip() and not set(l.strip()) <= set('-+')]
        if norm(p) == norm(n):
            c = 'same'
        elif any(l.startswith('ERROR') for l in n) and not any(l.startswith('ERROR') for l in p):
            c = 'refused'
        elif any(l.startswith('ERROR') for l in n) and any(l.startswith('ERROR') for l in p):
            c = 'both-err'
        else:
            c = 'diff'
        tot[c] += 1
        if c == 'diff':
            print('  diff:', script, s[0], file=sys.stderr)
    print(script, {k: v for k, v in tot.items()})

"""Long and deep statements over pgwire, on numacube and PostgreSQL: each answer and whether the connection lives."""
import sys
from wire import *

def one(port, sql):
    c = Conn(port, timeout=60)
    c.send(Q(sql))
    a = summary(c.until_ready())
    c.send(Q('SELECT 1'))
    b = summary(c.until_ready())
    c.close()
    return a[:160] + ('' if 'C(SELECT 1)' in b else '  [connection dead: %s]' % b)

CASES = {
  'quoted identifier 100k': 'SELECT 1 AS "' + 'a' * 100000 + '"',
  'quoted identifier 5k': 'SELECT 1 AS "' + 'a' * 5000 + '"',
  'string literal 1M': "SELECT length('" + 'x' * 1000000 + "')",
  'string literal 100k': "SELECT length('" + 'x' * 100000 + "')",
  'comment 1M': "SELECT 1 /* " + 'x' * 1000000 + " */",
  'line comment 1M': "SELECT 1 -- " + 'x' * 1000000 + "\n",
  'dollar string 1M': "SELECT length($$" + 'x' * 1000000 + "$$)",
  'parens 10k': 'SELECT ' + '(' * 10000 + '1' + ')' * 10000,
  'parens 1k': 'SELECT ' + '(' * 1000 + '1' + ')' * 1000,
  'plus chain 100k': 'SELECT ' + '+'.join(['1'] * 100000),
  'unary minus 50k': 'SELECT ' + '-' * 50000 + '1',
  'NOT chain 20k': 'SELECT ' + 'NOT ' * 20000 + 'true',
  'AND chain 50k': 'SELECT count(*) FROM trades WHERE ' + ' AND '.join(['1=1'] * 50000),
  'OR chain 50k': 'SELECT count(*) FROM trades WHERE ' + ' OR '.join(['qty=%d' % i for i in range(50000)]),
  'IN list 200k': 'SELECT count(*) FROM trades WHERE qty IN (' + ','.join(str(i) for i in range(200000)) + ')',
  'CASE nested 5k': 'SELECT ' + 'CASE WHEN true THEN ' * 5000 + '1' + ' END' * 5000,
  'subquery nested 2k': 'SELECT ' + '(SELECT ' * 2000 + '1' + ')' * 2000,
  'function nested 5k': 'SELECT ' + 'abs(' * 5000 + '1' + ')' * 5000,
  'UNION ALL 5k': ' UNION ALL '.join(['SELECT %d' % i for i in range(5000)]),
  'many statements 10k': 'SELECT 1;' * 10000,
  'select list 20k': 'SELECT ' + ','.join(['1'] * 20000),
}

numa, pg = int(sys.argv[1]), int(sys.argv[2])
pick = sys.argv[3] if len(sys.argv) > 3 else ''
for name, sql in CASES.items():
    if pick not in name:
        continue
    r = []
    for port in (numa, pg):
        try:
            r.append(one(port, sql))
        except Exception as e:
            r.append('PROBE-EXC %r' % e)
    print('## %s (%d chars)\n  numa: %s\n  pg:   %s' % (name, len(sql), r[0], r[1]), flush=True)

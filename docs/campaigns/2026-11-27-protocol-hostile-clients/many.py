"""Many PostgreSQL connections at once: N sockets that complete the startup, then each runs a query; counts the
answers (sessions, FATAL 53300, other). Usage: many.py PGPORT N."""
import sys, collections
from wire import *
port, n = int(sys.argv[1]), int(sys.argv[2])
conns, outcomes = [], collections.Counter()
for i in range(n):
    try:
        c = Conn(port, timeout=10, start=False)
        c.send(startup_packet({'user': 'u%d' % i, 'database': 'x'}))
        r = summary(c.until_ready())
        outcomes[r[-40:] if 'Z(I)' not in r else 'session'] += 1
        conns.append(c)
    except Exception as e:
        outcomes[repr(e)[:60]] += 1
ok = 0
for c in conns:
    try:
        c.send(Q('SELECT count(*) FROM trades')); r = summary(c.until_ready())
        ok += 'C(SELECT 1)' in r
    except Exception:
        pass
print(dict(outcomes), 'queries answered:', ok)
for c in conns: c.close()

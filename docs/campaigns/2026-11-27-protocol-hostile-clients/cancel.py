"""CancelRequest and statement_timeout against long statements on numacube: right key, wrong key, after the query."""
import socket, struct, sys, time, threading
from wire import *
port = int(sys.argv[1])
LONG = {
  'cross join count': 'SELECT count(*) FROM trades a, trades b WHERE a.pnl + b.pnl > 1e12',
  'OR chain 4000': 'SELECT count(*) FROM trades WHERE ' + ' OR '.join('trade_id=%d' % i for i in range(4000)),
}
def cancel(pid, key):
    s = socket.create_connection(('127.0.0.1', port)); s.sendall(struct.pack('!iiii', 16, 80877102, pid, key))
    r = s.recv(100); s.close(); return r
for name, sql in LONG.items():
    for mode in ('right key', 'wrong key', 'statement_timeout 1s'):
        c = Conn(port, timeout=120)
        if mode.startswith('statement_timeout'):
            c.send(Q("SET statement_timeout = '1s'")); c.until_ready()
        t = time.time(); c.send(Q(sql))
        if mode != 'statement_timeout 1s':
            time.sleep(1.0)
            cancel(c.pid, c.key if mode == 'right key' else c.key ^ 1)
        r = summary(c.until_ready()); dt = time.time() - t
        c.send(Q('SELECT 1')); alive = summary(c.until_ready())
        print('%s / %s: %.2fs %s | after: %s' % (name, mode, dt, r[:120], alive), flush=True)
        c.close()
# a cancel arriving when idle must not cancel the next query
c = Conn(port); cancel(c.pid, c.key); time.sleep(0.2); c.send(Q('SELECT count(*) FROM trades')); print('idle cancel then query:', summary(c.until_ready())); c.close()

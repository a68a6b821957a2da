"""Time of AND/OR chains of growing length on numacube; while one runs, a second client's SELECT 1 is timed."""
import sys, time, threading
from wire import *
port = int(sys.argv[1])
for n in [int(x) for x in sys.argv[2].split(',')]:
    for op in ('AND', 'OR'):
        sql = 'SELECT count(*) FROM trades WHERE ' + (' %s ' % op).join(['trade_id=%d' % i for i in range(n)])
        probe = {}
        def side():
            time.sleep(0.5)
            t = time.time(); c = Conn(port); c.send(Q('SELECT 1')); r = summary(c.until_ready()); c.close()
            probe['t'] = time.time() - t; probe['r'] = r
        th = threading.Thread(target=side); th.start()
        c = Conn(port, timeout=300); t = time.time(); c.send(Q(sql)); r = summary(c.until_ready()); dt = time.time() - t; c.close()
        th.join()
        print('%s x%d: %.2fs %s | other client SELECT 1 in %.2fs %s' % (op, n, dt, r[:100], probe['t'], probe['r']), flush=True)

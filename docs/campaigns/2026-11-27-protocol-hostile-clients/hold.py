"""N sessions each announce a Query of 16 MiB - 1 KiB and send only its header; the server's heap is read meanwhile
(jcmd), then a fresh client's SELECT 1 is timed. Usage: hold.py PGPORT N JAVA_PID."""
import struct, subprocess, sys, time
from wire import *
port, n, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
J = '/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd'
def heap():
    subprocess.run([J, pid, 'GC.run'], capture_output=True)
    out = subprocess.run([J, pid, 'GC.heap_info'], capture_output=True, text=True).stdout
    return [l.strip() for l in out.splitlines() if 'used' in l][0]
print('before:', heap())
conns = []
for i in range(n):
    try:
        c = Conn(port, timeout=10)
    except Exception as e:
        print('connection', i, 'failed:', e); break
    c.send(b'Q' + struct.pack('!i', (16 << 20) - 1024) + b'SELECT ')
    conns.append(c)
time.sleep(2)
print('%d holding:' % len(conns), heap())
t = time.time()
try:
    d = Conn(port, timeout=10); d.send(Q('SELECT 1')); print('fresh client:', summary(d.until_ready()), '%.2fs' % (time.time() - t)); d.close()
except Exception as e:
    print('fresh client failed:', e)
for c in conns: c.close()
time.sleep(2)
print('after close:', heap())

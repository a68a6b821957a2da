"""Slow HTTP clients: N connections send a POST /v1/query's headers and part of its body, then nothing; meanwhile a
normal request is timed every few seconds. Usage: slow_http.py PORT N SECONDS."""
import socket, sys, time, http.client
port, n, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
held = []
for i in range(n):
    s = socket.create_connection(('127.0.0.1', port))
    s.sendall(b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nSELECT')
    held.append(s)
t0 = time.time()
while time.time() - t0 < secs:
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    t = time.time()
    try:
        c.request('POST', '/v1/query', body='SELECT 1', headers={'Content-Type': 'text/plain'})
        r = c.getresponse(); body = r.read()[:90]
        print('%5.1fs: %d %s (%.2fs)' % (time.time() - t0, r.status, body, time.time() - t), flush=True)
    except Exception as e:
        print('%5.1fs: %r' % (time.time() - t0, e), flush=True)
    time.sleep(5)
closed = 0
for s in held:
    s.settimeout(0.1)
    try:
        if s.recv(1000) == b'': closed += 1
        else: closed += 1
    except socket.timeout:
        pass
    except OSError:
        closed += 1
print('slow connections the server closed or answered: %d of %d' % (closed, n))

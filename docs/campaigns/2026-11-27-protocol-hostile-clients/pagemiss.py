"""GET of N distinct missing page files with long names (HTTP keep-alive), to see whether the server keeps them."""
import http.client, sys
port, n, length = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
c = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
codes = {}
for i in range(n):
    c.request('GET', '/%d%s.js' % (i, 'a' * length))
    r = c.getresponse(); r.read()
    codes[r.status] = codes.get(r.status, 0) + 1
print(codes)

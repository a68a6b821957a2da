"""Raw HTTP/1.1 requests to numacube's HTTP API (a socket, bytes as written): status line, headers of interest, body.
Usage: http_raw.py PORT. Not a tool: an appendix of the campaign."""
import socket, sys, time, json
port = int(sys.argv[1])

def req(data, timeout=10, delay=None):
    s = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    if delay:
        for part in data:
            s.sendall(part); time.sleep(delay)
    else:
        s.sendall(data)
    out = b''
    try:
        while True:
            b = s.recv(65536)
            if not b: break
            out += b
            if b'\r\n\r\n' in out:
                head, _, body = out.partition(b'\r\n\r\n')
                cl = [l for l in head.split(b'\r\n') if l.lower().startswith(b'content-length:')]
                if cl and len(body) >= int(cl[0].split(b':')[1]): break
                if b'chunked' in head.lower() and body.endswith(b'0\r\n\r\n'): break
    except socket.timeout:
        out += b' <TIMEOUT>'
    s.close()
    head, _, body = out.partition(b'\r\n\r\n')
    lines = head.split(b'\r\n')
    keep = [l.decode('latin1') for l in lines[1:] if l.split(b':')[0].lower() in (b'allow', b'content-type', b'content-length', b'transfer-encoding')]
    return '%s %s %s' % (lines[0].decode('latin1'), keep, body[:220].decode('utf-8', 'replace').strip())

def post(path, body, ctype='application/json', extra=''):
    body = body.encode() if isinstance(body, str) else body
    return ('POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n%s\r\n' % (path, ctype, len(body), extra)).encode() + body

def get(path, method='GET', extra=''):
    return ('%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%s\r\n' % (method, path, extra)).encode()

CASES = {
  'json not an object': post('/v1/query', '[1,2]'),
  'json truncated': post('/v1/query', '{"sql": "SELECT 1'),
  'json sql number': post('/v1/query', '{"sql": 1}'),
  'json sql null': post('/v1/query', '{"sql": null}'),
  'json duplicate key': post('/v1/query', '{"sql": "SELECT 1", "sql": "SELECT 2"}'),
  'json unknown key': post('/v1/query', '{"sql": "SELECT 1", "bogus": 1}'),
  'json params not array': post('/v1/query', '{"sql": "SELECT $1", "params": {"a": 1}}'),
  'json params nested': post('/v1/query', '{"sql": "SELECT $1", "params": [[1, 2]]}'),
  'json params too few': post('/v1/query', '{"sql": "SELECT $1 + $2", "params": [1]}'),
  'json timeout negative': post('/v1/query', '{"sql": "SELECT 1", "timeout_ms": -5}'),
  'json timeout huge': post('/v1/query', '{"sql": "SELECT 1", "timeout_ms": 1e300}'),
  'json timeout string': post('/v1/query', '{"sql": "SELECT 1", "timeout_ms": "5"}'),
  'json deep nesting 100k': post('/v1/query', '{"sql": "SELECT 1", "params": ' + '[' * 100000 + ']' * 100000 + '}'),
  'json huge number': post('/v1/query', '{"sql": "SELECT $1", "params": [' + '9' * 100000 + ']}'),
  'json invalid utf8': post('/v1/query', b'{"sql": "SELECT \'\xff\'"}'),
  'json BOM': post('/v1/query', b'\xef\xbb\xbf{"sql": "SELECT 1"}'),
  'text/plain body': post('/v1/query', 'SELECT 1', 'text/plain'),
  'content type xml': post('/v1/query', '<sql>SELECT 1</sql>', 'application/xml'),
  'content type json charset latin1': post('/v1/query', '{"sql": "SELECT 1"}', 'application/json; charset=latin1'),
  'form urlencoded': post('/v1/query', 'sql=SELECT+1', 'application/x-www-form-urlencoded'),
  'empty body json': post('/v1/query', '', 'application/json'),
  'content-length lies (short)': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\nConnection: close\r\n\r\nSELECT 1',
  'content-length negative': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: -1\r\nConnection: close\r\n\r\nSELECT 1',
  'content-length not a number': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: abc\r\nConnection: close\r\n\r\nSELECT 1',
  'content-length 2^63': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 9223372036854775808\r\nConnection: close\r\n\r\nSELECT 1',
  'two content-lengths': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 8\r\nContent-Length: 3\r\nConnection: close\r\n\r\nSELECT 1',
  'chunked body': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n4\r\nSELE\r\n4\r\nCT 1\r\n0\r\n\r\n',
  'chunked bad size': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nSELE\r\n0\r\n\r\n',
  'chunked huge size': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nFFFFFFFFFFFF\r\nSELE\r\n0\r\n\r\n',
  'chunked and content-length': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nContent-Length: 8\r\nConnection: close\r\n\r\n8\r\nSELECT 1\r\n0\r\n\r\n',
  'body 20 MB announced': b'POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 20000000\r\nConnection: close\r\n\r\nSELECT 1',
  'body 5 MB sent': post('/v1/query', 'SELECT 1 /*' + 'x' * 5000000 + '*/', 'text/plain'),
  'sql 1M chars': post('/v1/query', json.dumps({'sql': "SELECT length('" + 'x' * 1000000 + "')"})),
  'sql long quoted alias': post('/v1/query', json.dumps({'sql': 'SELECT 1 AS "' + 'a' * 20000 + '"'})),
  'sql nested parens 10k': post('/v1/query', json.dumps({'sql': 'SELECT ' + '(' * 10000 + '1' + ')' * 10000})),
  'sql stack overflow quoted pairs': post('/v1/query', json.dumps({'sql': 'SELECT 1 AS "' + '""' * 200000 + '"'})),
  'GET /v1/query': get('/v1/query'),
  'HEAD /v1/health': get('/v1/health', 'HEAD'),
  'HEAD /': get('/', 'HEAD'),
  'OPTIONS /v1/query': get('/v1/query', 'OPTIONS'),
  'OPTIONS *': b'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'TRACE /': get('/', 'TRACE'),
  'PUT /v1/query': get('/v1/query', 'PUT'),
  'BREW /v1/query (unknown method)': get('/v1/query', 'BREW'),
  'path traversal ..': get('/../../etc/passwd'),
  'path traversal encoded': get('/%2e%2e/%2e%2e/etc/passwd'),
  'path traversal encoded js': get('/%2e%2e/io/numacube/server/web/app.js'),
  'path vendor encoded': get('/vendor/%2e%2e/index.html'),
  'path class file': get('/io/numacube/server/http/WebPage.class'),
  'path absolute URI': b'GET http://evil/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'path with NUL': get('/index.html%00.js'),
  'path backslash': get('/..\\..\\x.js'),
  'path very long': get('/' + 'a' * 100000 + '.js'),
  'header very long': get('/v1/health', extra='X-Big: ' + 'a' * 1000000 + '\r\n'),
  'many headers': get('/v1/health', extra=''.join('X-H%d: 1\r\n' % i for i in range(20000))),
  'HTTP/1.0 no host': b'GET /v1/health HTTP/1.0\r\n\r\n',
  'HTTP/2.0 line': b'GET /v1/health HTTP/2.0\r\nHost: x\r\n\r\n',
  'garbage request line': b'\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03' + b'\0' * 50,
  'request line only spaces': b'     \r\n\r\n',
  'table with slash encoded': get('/v1/tables/a%2Fb'),
  'table name quotes': get('/v1/tables/%22w%22'),
  'table name sql injection': get("/v1/tables/w';DROP"),
  'rows wrong content type': post('/v1/tables/w/rows', 'k,v,s\n5,5,a\n', 'application/xml'),
  'rows csv bad row': post('/v1/tables/w/rows', 'k,v,s\n5,5,a\nx,y,z\n', 'text/csv'),
  'rows csv no header': post('/v1/tables/w/rows', '', 'text/csv'),
  'rows ndjson bad line': post('/v1/tables/w/rows', '{"k":5,"v":5,"s":"a"}\n{bad\n', 'application/x-ndjson'),
  'rows unknown table': post('/v1/tables/nosuch/rows', 'k\n1\n', 'text/csv'),
  'queries delete unknown': get('/v1/queries/does-not-exist', 'DELETE'),
  'queries delete empty id': get('/v1/queries/', 'DELETE'),
  'events unknown table': get('/v1/tables/nosuch/events'),
  'metrics': get('/metrics'),
  'auth header malformed (no users)': get('/v1/tables', extra='Authorization: Basic !!!notbase64\r\n'),
}
pick = sys.argv[2] if len(sys.argv) > 2 else ''
for name, data in CASES.items():
    if pick not in name: continue
    try:
        r = req(data)
    except Exception as e:
        r = 'PROBE-EXC %r' % e
    alive = req(get('/v1/health'))
    print('## %s\n  %s%s' % (name, r[:400], '' if '200' in alive.split('\n')[0] else '\n  !! SERVER NOT ALIVE ' + alive), flush=True)

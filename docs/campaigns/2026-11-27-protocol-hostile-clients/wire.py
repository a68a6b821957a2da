"""A raw protocol-3.0 client (struct-packed messages) for the campaign's probes. Not a tool."""
import socket, struct, time

def cstr(s):
    return (s.encode() if isinstance(s, str) else s) + b'\0'

def msg(t, body=b''):
    return t.encode() + struct.pack('!i', len(body) + 4) + body

def startup_packet(params, version=196608):
    body = struct.pack('!i', version) + b''.join(cstr(k) + cstr(v) for k, v in params.items()) + b'\0'
    return struct.pack('!i', len(body) + 4) + body

def Q(sql): return msg('Q', cstr(sql))
def P(name, sql, oids=()): return msg('P', cstr(name) + cstr(sql) + struct.pack('!h', len(oids)) + b''.join(struct.pack('!i', o) for o in oids))
def B(portal, stmt, params=(), pfmts=(), rfmts=()):
    b = cstr(portal) + cstr(stmt) + struct.pack('!h', len(pfmts)) + b''.join(struct.pack('!h', f) for f in pfmts)
    b += struct.pack('!h', len(params))
    for p in params:
        if p is None: b += struct.pack('!i', -1)
        else:
            p = p.encode() if isinstance(p, str) else p
            b += struct.pack('!i', len(p)) + p
    b += struct.pack('!h', len(rfmts)) + b''.join(struct.pack('!h', f) for f in rfmts)
    return msg('B', b)
def D(kind, name): return msg('D', kind.encode() + cstr(name))
def E(portal='', maxrows=0): return msg('E', cstr(portal) + struct.pack('!i', maxrows))
def C(kind, name): return msg('C', kind.encode() + cstr(name))
S = msg('S'); H = msg('H'); X = msg('X')

class Conn:
    def __init__(self, port, host='127.0.0.1', timeout=10, user='postgres', db='postgres', start=True, extra=None):
        self.s = socket.create_connection((host, port), timeout=timeout)
        self.buf = b''
        self.pid = self.key = None
        if start:
            p = {'user': user, 'database': db}
            p.update(extra or {})
            self.send(startup_packet(p))
            self.until_ready()

    def send(self, data):
        self.s.sendall(data)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError('closed')
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read(self):
        t = self._read(1).decode('latin1')
        n = struct.unpack('!i', self._read(4))[0]
        body = self._read(n - 4)
        if t == 'K':
            self.pid, self.key = struct.unpack('!ii', body)
        return t, body

    def until_ready(self, limit=100000):
        out = []
        for _ in range(limit):
            try:
                t, b = self.read()
            except (EOFError, ConnectionResetError) as e:
                out.append(('EOF', b''))
                return out
            except socket.timeout:
                out.append(('TIMEOUT', b''))
                return out
            out.append((t, b))
            if t == 'Z' or t == 'G':
                return out
        return out

    def close(self):
        try: self.s.close()
        except Exception: pass

def fields(body):
    f = {}
    for part in body.split(b'\0'):
        if part:
            f[chr(part[0])] = part[1:].decode('utf-8', 'replace')
    return f

def summary(msgs, rows=False):
    out = []
    for t, b in msgs:
        if t in 'EN':
            f = fields(b)
            out.append('%s(%s %s %s)' % (t, f.get('S'), f.get('C'), f.get('M', '')[:90]))
        elif t == 'C':
            out.append('C(%s)' % b.rstrip(b'\0').decode())
        elif t == 'Z':
            out.append('Z(%s)' % b.decode())
        elif t == 'D' and not rows:
            if out and out[-1].startswith('D*'):
                out[-1] = 'D*%d' % (int(out[-1][2:]) + 1)
            else:
                out.append('D*1')
        elif t in ('S', 'K'):
            continue
        else:
            out.append(t)
    return ' '.join(out)

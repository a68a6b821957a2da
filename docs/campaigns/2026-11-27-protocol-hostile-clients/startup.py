"""Startup-phase probes (raw packets before any session), on numacube and PostgreSQL 15, side by side."""
import socket, struct, sys, time
from wire import *

def raw(port, data, timeout=5, read_startup=True):
    s = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    s.sendall(data)
    c = Conn.__new__(Conn); c.s = s; c.buf = b''; c.pid = c.key = None
    out = []
    try:
        first = s.recv(1, socket.MSG_PEEK)
        if first in (b'S', b'N') and len(data) == 8:
            out.append('byte ' + s.recv(1).decode())
            return ' '.join(out)
    except socket.timeout:
        return 'TIMEOUT'
    out.append(summary(c.until_ready()))
    s.close()
    return ' '.join(out)

def sp(params, version=196608):
    return startup_packet(params, version)

U = {'user': 'postgres', 'database': 'postgres'}
CASES = {
  'ssl request': struct.pack('!ii', 8, 80877103),
  'gssenc request': struct.pack('!ii', 8, 80877104),
  'ssl request then startup': struct.pack('!ii', 8, 80877103),
  'protocol 2.0': sp(U, 2 << 16),
  'protocol 3.1': sp(U, (3 << 16) | 1),
  'protocol 3.99 + _pq_ option': sp(dict(U, _pq_x='1'), (3 << 16) | 99).replace(b'_pq_x', b'_pq_.x'),
  'protocol 4.0': sp(U, 4 << 16),
  'protocol 1234.5678 (unknown code)': sp(U, 1234 << 16 | 5678),
  'no user': sp({'database': 'postgres'}),
  'empty user': sp({'user': ''}),
  'unknown parameter': sp(dict(U, foo_bar='1')),
  'unknown dotted parameter': sp(dict(U, **{'my.setting': '1'})),
  'application_name 10k': sp(dict(U, application_name='x' * 9000)),
  'options -c bad': sp(dict(U, options='-c statement_timeout=nope')),
  'options -c unknown': sp(dict(U, options='-c nonsense_param=1')),
  'options garbage': sp(dict(U, options='--- -c -c')),
  'DateStyle bad': sp(dict(U, DateStyle='Klingon')),
  'client_encoding LATIN1': sp(dict(U, client_encoding='LATIN1')),
  'client_encoding bogus': sp(dict(U, client_encoding='bogus')),
  'TimeZone bogus': sp(dict(U, TimeZone='Mars/Olympus')),
  'replication=database': sp(dict(U, replication='database')),
  'replication=true': sp(dict(U, replication='true')),
  'replication=bogus': sp(dict(U, replication='bogus')),
  'startup length 7': struct.pack('!ii', 7, 196608),
  'startup length 20000': struct.pack('!ii', 20000, 196608) + b'user\0x\0\0',
  'startup no terminator': struct.pack('!i', 4 + 4 + 9) + struct.pack('!i', 196608) + b'user\0abc',
  'startup key without value': struct.pack('!i', 4 + 4 + 6) + struct.pack('!i', 196608) + b'user\0\0',
  'startup invalid utf8 user': sp({'user': 'x'}).replace(b'x\0', b'\xff\0'),
  'cancel wrong key': struct.pack('!iiii', 16, 80877102, 1, 2),
  'cancel short': struct.pack('!iii', 12, 80877102, 1),
  'cancel long': struct.pack('!iiiii', 20, 80877102, 1, 2, 3),
  'typed message before startup': msg('Q', cstr('SELECT 1')),
}
numa, pg = int(sys.argv[1]), int(sys.argv[2])
for name, data in CASES.items():
    r = []
    for port in (numa, pg):
        try:
            r.append(raw(port, data))
        except Exception as e:
            r.append('PROBE-EXC %r' % e)
    print('## %s\n  numa: %s\n  pg:   %s' % (name, r[0][:200], r[1][:200]), flush=True)

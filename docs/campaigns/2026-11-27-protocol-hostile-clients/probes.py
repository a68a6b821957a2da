"""Protocol probes, each run on numacube and on PostgreSQL 15; prints both answers side by side.
Usage: probes.py NUMA_PGPORT PG_PORT [CASE-SUBSTRING]. Not a tool: an appendix of the campaign."""
import socket, struct, sys, time
from wire import *

def run(port, steps, timeout=5):
    """steps: bytes to send, then read until ReadyForQuery (or EOF/timeout); returns the summaries."""
    c = Conn(port, timeout=timeout)
    outs = []
    for data in steps:
        try:
            c.send(data)
        except OSError as e:
            outs.append('SEND-FAILED')
            break
        outs.append(summary(c.until_ready()))
        if outs[-1].endswith('EOF') or outs[-1].endswith('TIMEOUT'):
            break
    c.close()
    return ' | '.join(outs)

BIG = 'SELECT 1'
CASES = {
  # framing
  'negative length': [b'Q' + struct.pack('!i', -5)],
  'length 3': [b'Q' + struct.pack('!i', 3)],
  'length 1GiB+ announced': [b'Q' + struct.pack('!i', (1 << 30) + 10) + b'SELECT 1\0'],
  'length 2^31-1': [b'Q' + struct.pack('!i', 2**31 - 1)],
  'unknown type z': [msg('z', b'abc'), Q('SELECT 1')],
  'type 0 byte': [msg('\0', b''), Q('SELECT 1')],
  'query without NUL': [msg('Q', b'SELECT 1'), Q('SELECT 1')],
  'query with bytes after NUL': [msg('Q', b'SELECT 1\0junk'), Q('SELECT 1')],
  'query invalid utf8': [msg('Q', b'SELECT \'\xff\xfe\'\0'), Q('SELECT 1')],
  'query NUL inside': [msg('Q', b'SELECT 1\0SELECT 2\0'), Q('SELECT 1')],
  'empty query': [Q(''), Q(';;;'), Q('SELECT 1')],
  'sync with body': [msg('S', b'xx'), Q('SELECT 1')],
  'flush alone then query': [H + Q('SELECT 1')],
  'CopyData outside copy': [msg('d', b'1,2\n') + msg('c') + msg('f', cstr('x')) + Q('SELECT 1')],
  'function call F': [msg('F', struct.pack('!i', 1234) + struct.pack('!hhh', 0, 0, 0)) + S, Q('SELECT 1')],
  'password message after startup': [msg('p', cstr('secret')), Q('SELECT 1')],
  # parse / bind
  'parse negative oid count': [P('', 'SELECT $1::int', ()) [:0] + msg('P', cstr('') + cstr('SELECT 1') + struct.pack('!h', -3)) + S, Q('SELECT 1')],
  'parse oid count beyond body': [msg('P', cstr('') + cstr('SELECT 1') + struct.pack('!h', 5)) + S, Q('SELECT 1')],
  'parse unknown oid 999999': [P('', 'SELECT $1', (999999,)) + B('', '', ['1']) + E() + S],
  'parse oid 0 more declared than used': [P('', 'SELECT 1', (23, 23)) + B('', '', ['1', '2']) + E() + S],
  'bind too few params': [P('', 'SELECT $1::int') + B('', '', []) + E() + S, Q('SELECT 1')],
  'bind too many params': [P('', 'SELECT 1') + B('', '', ['1']) + E() + S],
  'bind negative param count': [P('', 'SELECT 1') + msg('B', cstr('') + cstr('') + struct.pack('!hh', 0, -1) + struct.pack('!h', 0)) + E() + S],
  'bind 2 formats 1 param': [P('', 'SELECT $1::int') + B('', '', ['1'], pfmts=(0, 0)) + E() + S],
  'bind format code 2': [P('', 'SELECT $1::int') + B('', '', ['1'], pfmts=(2,)) + E() + S],
  'bind result format 7': [P('', 'SELECT 1') + B('', '', [], rfmts=(7,)) + E() + S],
  'bind 3 result formats 1 col': [P('', 'SELECT 1') + B('', '', [], rfmts=(1, 1, 1)) + E() + S],
  'bind binary int4 of 3 bytes': [P('', 'SELECT $1', (23,)) + B('', '', [b'\0\0\1'], pfmts=(1,)) + E() + S],
  'bind binary int8 of 4 bytes': [P('', 'SELECT $1', (20,)) + B('', '', [b'\0\0\0\1'], pfmts=(1,)) + E() + S],
  'bind binary int4 of 5 bytes': [P('', 'SELECT $1', (23,)) + B('', '', [b'\0\0\0\0\1'], pfmts=(1,)) + E() + S],
  'bind binary float8 of 2 bytes': [P('', 'SELECT $1', (701,)) + B('', '', [b'\0\1'], pfmts=(1,)) + E() + S],
  'bind binary bool 2': [P('', 'SELECT $1', (16,)) + B('', '', [b'\2'], pfmts=(1,)) + E() + S],
  'bind binary text invalid utf8': [P('', 'SELECT $1', (25,)) + B('', '', [b'\xff'], pfmts=(1,)) + E() + S],
  'bind binary numeric garbage': [P('', 'SELECT $1', (1700,)) + B('', '', [b'\0\1\0\0\0\0\0\0'], pfmts=(1,)) + E() + S],
  'bind binary numeric short': [P('', 'SELECT $1', (1700,)) + B('', '', [b'\0\1'], pfmts=(1,)) + E() + S],
  'bind binary numeric ndigits 30000': [P('', 'SELECT $1', (1700,)) + B('', '', [struct.pack('!hhhh', 30000, 0, 0, 0)], pfmts=(1,)) + E() + S],
  'bind binary date huge': [P('', 'SELECT $1', (1082,)) + B('', '', [struct.pack('!i', 2**31 - 1)], pfmts=(1,)) + E() + S],
  'bind binary timestamp huge': [P('', 'SELECT $1', (1114,)) + B('', '', [struct.pack('!q', 2**63 - 1)], pfmts=(1,)) + E() + S],
  'bind binary timestamp min': [P('', 'SELECT $1', (1114,)) + B('', '', [struct.pack('!q', -2**63)], pfmts=(1,)) + E() + S],
  'bind binary float NaN': [P('', 'SELECT $1', (701,)) + B('', '', [struct.pack('!d', float('nan'))], pfmts=(1,)) + E() + S],
  'bind binary int2 65535': [P('', 'SELECT $1', (21,)) + B('', '', [b'\xff\xff'], pfmts=(1,)) + E() + S],
  'bind param length beyond body': [P('', 'SELECT $1::int') + msg('B', cstr('') + cstr('') + struct.pack('!hhi', 0, 1, 100) + b'1' + struct.pack('!h', 0)) + E() + S],
  'bind param length -2': [P('', 'SELECT $1::int') + msg('B', cstr('') + cstr('') + struct.pack('!hhi', 0, 1, -2) + struct.pack('!h', 0)) + E() + S],
  'bind unknown statement': [B('', 'nope', []) + E() + S],
  'bind text int of junk': [P('', 'SELECT $1::int') + B('', '', ['x1']) + E() + S],
  'bind text int4 param overflow': [P('', 'SELECT $1', (23,)) + B('', '', ['99999999999']) + E() + S],
  'bind text bool junk': [P('', 'SELECT $1', (16,)) + B('', '', ['maybe']) + E() + S],
  'bind text NUL in param': [P('', 'SELECT $1', (25,)) + B('', '', [b'a\0b']) + E() + S],
  'bind quote injection': [P('', 'SELECT $1', (25,)) + B('', '', ["a'); DROP TABLE w; --"]) + E() + S, Q('SELECT count(*) FROM w')],
  'bind backslash quote': [P('', 'SELECT $1', (25,)) + B('', '', ["\\'; SELECT 1; --"]) + E() + S],
  'bind dollar in text': [P('', 'SELECT $1 || $2', (25, 25)) + B('', '', ['$2', 'x']) + E() + S],
  # describe / execute / close
  'execute unknown portal': [E('nope') + S, Q('SELECT 1')],
  'describe closed statement': [P('s1', 'SELECT 1') + C('S', 's1') + D('S', 's1') + S],
  'describe closed portal': [P('', 'SELECT 1') + B('p1', '') + C('P', 'p1') + D('P', 'p1') + S],
  'close nonexistent': [C('S', 'nope') + C('P', 'nope') + S],
  'close kind Z': [C('Z', 'x') + S, Q('SELECT 1')],
  'describe kind Z': [D('Z', 'x') + S, Q('SELECT 1')],
  'close then reuse name': [P('s1', 'SELECT 1') + C('S', 's1') + P('s1', 'SELECT 2') + B('', 's1') + E() + S],
  'parse duplicate name': [P('s1', 'SELECT 1') + P('s1', 'SELECT 2') + S, Q('SELECT 1')],
  'named portal after sync': [P('s1', 'SELECT 1') + B('p1', 's1') + S, E('p1') + S],
  'execute twice completed portal': [P('', 'SELECT k FROM w ORDER BY k') + B('', '') + E() + E() + S],
  'execute write portal twice': [P('', "INSERT INTO w VALUES (9, 9, 'z')") + B('', '') + E() + E() + S, Q('SELECT count(*) FROM w WHERE k = 9'), Q('DELETE FROM w WHERE k = 9')],
  'execute maxrows negative': [P('', 'SELECT k FROM w') + B('', '') + E('', -5) + S],
  'execute maxrows 1 then sync then again': [P('', 'SELECT k FROM w ORDER BY k') + B('', '') + E('', 1) + S, E('', 1) + S],
  'describe portal then execute': [P('', 'SELECT k FROM w ORDER BY k') + B('', '') + D('P', '') + E('', 1) + E('', 1) + E('', 1) + S],
  'sync-less pipeline then sync': [P('', 'SELECT 1') + B('', '') + E() + P('', 'SELECT 2') + B('', '') + E() + H, S],
  'error then flush no sync': [P('', 'SELECT nope') + H, Q('SELECT 1'), S],
  'query inside extended batch': [P('', 'SELECT 1') + B('', '') + Q('SELECT 2') + E() + S],
  'parse multiple statements': [P('', 'SELECT 1; SELECT 2') + S],
  'parse empty then execute': [P('', '') + B('', '') + D('P', '') + E() + S],
  'bind of statement whose parse failed': [P('s9', 'SELEC 1') + S, B('', 's9') + E() + S],
  'begin via extended, error, sync': [P('', 'BEGIN') + B('', '') + E() + P('', 'SELECT nope') + B('', '') + E() + S, Q('SELECT 1'), Q('ROLLBACK')],
  'terminate mid batch': [P('', "INSERT INTO w VALUES (8, 8, 'y')") + B('', '') + E() + X, ],
  # COPY
  'copy from stdin bad row': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'1,2,a\nxx,3,b\n') + msg('c'), Q('SELECT count(*) FROM w')],
  'copy fail': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'5,5,q\n') + msg('f', cstr('client says no')), Q('SELECT count(*) FROM w')],
  'copy then query message': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'5,5,q\n') + Q('SELECT 1'), Q('SELECT count(*) FROM w')],
  'copy then sync then done': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'5,5,q\n') + S + msg('c'), Q('DELETE FROM w WHERE k = 5')],
  'copy to stdout': [Q('COPY w TO STDOUT'), Q('COPY (SELECT 1) TO STDOUT')],
  'copy extended protocol': [P('', 'COPY w FROM STDIN') + B('', '') + E() + S, msg('d', b'6\t6\tx\n') + msg('c') + S, Q('SELECT count(*) FROM w WHERE k = 6')],
  'copy data with bad utf8': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'7,7,\xff\xfe\n') + msg('c'), Q('SELECT count(*) FROM w WHERE k = 7')],
  'copy empty data messages': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'') * 1000 + msg('c'), Q('SELECT count(*) FROM w')],
  'copy terminate mid copy': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'7,7,a\n') + X],
  'copy unterminated quote': [Q('COPY w FROM STDIN (FORMAT csv)'), msg('d', b'7,7,"abc\n') + msg('c'), Q('SELECT count(*) FROM w WHERE k = 7')],
  # misc
  'very long identifier': [Q('SELECT 1 AS "' + 'a' * 100000 + '"')],
  'cancel from another conn while idle': [Q('SELECT 1')],
}

def main():
    numa, pg = int(sys.argv[1]), int(sys.argv[2])
    pick = sys.argv[3] if len(sys.argv) > 3 else ''
    n = 0
    for name, steps in CASES.items():
        if pick not in name:
            continue
        n += 1
        res = []
        for port in (numa, pg):
            try:
                res.append(run(port, steps))
            except Exception as e:
                res.append('PROBE-EXC %r' % e)
        alive = run(numa, [Q('SELECT 1')])
        print('## %s\n  numa: %s\n  pg:   %s%s' % (name, res[0], res[1], '' if 'D*1 C(SELECT 1)' in alive else '\n  !! NUMA NOT ALIVE: ' + alive))
    print('cases:', n)

main()

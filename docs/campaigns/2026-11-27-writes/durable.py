"""Writes of every kind on a --data-dir server, the tables read, kill -9 (or SIGTERM), restart, tables compared."""
import json, os, signal, subprocess, sys, time, urllib.request, psycopg
MODE = sys.argv[1]  # kill or term
D = '/tmp/h12/dd-' + MODE
subprocess.run(['rm', '-rf', D]); os.makedirs(D)
def start(first):
    subprocess.run(['/tmp/h12/serve.sh', 'd' + MODE] + ([] if first else ['--recover']) + ['--data-dir', D], check=True, stdout=subprocess.DEVNULL)
    return int(open(f'/tmp/h12/d{MODE}.port').read()), open(f'/tmp/h12/d{MODE}.http').read().strip()
def snap(port):
    with psycopg.connect(f'host=127.0.0.1 port={port} user=me dbname=numacube', autocommit=True) as c:
        return {t: c.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall() for t in ('t', 'u', 'k')}
port, http = start(True)
c = psycopg.connect(f'host=127.0.0.1 port={port} user=me dbname=numacube', autocommit=True)
log = []
def ex(sql, *p):
    try:
        cur = c.execute(sql, p or None); log.append((sql, cur.statusmessage))
    except Exception as e:
        log.append((sql, 'ERR ' + str(e.sqlstate)))
ex("INSERT INTO t (id, v, s) VALUES (100, 1, 'new'), (101, NULL, 'é☃😀'), (102, 3, '')")
ex("INSERT INTO t (id, v, s, d, dt, b, f) VALUES (%s, %s, %s, %s, %s, %s, %s)", 103, -5, 'p,"q"', '12.345', '2024-02-29', True, 1e-300)
ex("UPDATE t SET v = v * 2, s = s || 'x' WHERE id < 100")
ex("UPDATE t SET dt = dt + 30 WHERE dt IS NOT NULL")
ex("DELETE FROM t WHERE id IN (SELECT id FROM u WHERE w > 400)")
ex("UPDATE k SET v = v + 100 WHERE id = 2")
ex("INSERT INTO k VALUES (1, 1000, 'replaced'), (9, 9, 'nine')")
ex("DELETE FROM k WHERE id = 3")
with c.cursor() as cur:
    with cur.copy("COPY u (id, w, s) FROM STDIN") as cp:
        cp.write(b'20\t200\ttab\\there\n21\t\\N\tnul\\\\l\n')
    log.append(('copy text', cur.statusmessage))
    with cur.copy("COPY u FROM STDIN WITH (FORMAT csv, HEADER)") as cp:
        cp.write(b'id,w,s\n22,220,"multi\nline"\n23,,""\n')
    log.append(('copy csv', cur.statusmessage))
c.autocommit = False
ex("INSERT INTO u (id, s) VALUES (30, 'block')"); ex("SAVEPOINT a"); ex("DELETE FROM u WHERE id = 1"); ex("ROLLBACK TO SAVEPOINT a")
ex("UPDATE u SET w = 31 WHERE id = 30"); c.commit()
ex("INSERT INTO u (id, s) VALUES (40, 'never')"); ex("INSERT INTO u (id, w) VALUES (41, 'bad')"); c.rollback()
ex("DELETE FROM u WHERE id = 3"); c.rollback()
c.autocommit = True
req = urllib.request.Request(http + '/v1/tables/u/rows', data=b'id,w,s\n50,5,http\n', headers={'Content-Type': 'text/csv'}, method='POST')
log.append(('http', urllib.request.urlopen(req).read().decode()[:80]))
req = urllib.request.Request(http + '/v1/query', data=json.dumps({'sql': "UPDATE u SET s = 'viahttp' WHERE id = 50"}).encode(), headers={'Content-Type': 'application/json'}, method='POST')
log.append(('http upd', urllib.request.urlopen(req).read().decode()[:80]))
for l in log: print(l)
before = snap(port)
c.close()
pid = int(open(f'/tmp/h12/d{MODE}.pid').read())
# the pid is numacube's launcher (bash) or java? find the java child
kids = subprocess.run(['pgrep', '-P', str(pid)], capture_output=True, text=True).stdout.split()
target = int(kids[0]) if kids else pid
os.kill(target, signal.SIGKILL if MODE == 'kill' else signal.SIGTERM)
time.sleep(3)
port, http = start(False)
after = snap(port)
for t in before:
    print(t, 'SAME' if before[t] == after[t] else 'DIFF', len(before[t]))
    if before[t] != after[t]:
        print(' before', before[t]); print(' after ', after[t])
p2 = int(open(f'/tmp/h12/d{MODE}.pid').read())
kids = subprocess.run(['pgrep', '-P', str(p2)], capture_output=True, text=True).stdout.split()
os.kill(int(kids[0]) if kids else p2, signal.SIGTERM)

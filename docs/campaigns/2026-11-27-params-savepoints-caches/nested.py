"""psycopg's nested transaction() blocks (SAVEPOINT / RELEASE / ROLLBACK TO) with COPY and executemany, on both."""
import psycopg, sys
def run(args):
    out = []
    with psycopg.connect(**args) as c:
        c.autocommit = True
        c.execute("DELETE FROM sp WHERE id >= 800")
        with c.transaction():
            c.execute("INSERT INTO sp VALUES (801, 1, 'nt')")
            try:
                with c.transaction():
                    with c.cursor().copy("COPY sp FROM STDIN") as cp:
                        cp.write_row((802, 2, 'nt'))
                    c.execute("INSERT INTO sp VALUES (803, 'bad', 'nt')")
            except psycopg.Error as e:
                out.append(e.sqlstate[:2])
            with c.transaction():
                c.cursor().executemany("INSERT INTO sp VALUES (%s, %s, %s)", [(804, 4, 'nt'), (805, 5, 'nt')])
                with c.transaction():
                    c.execute("UPDATE sp SET v = v * 10 WHERE s = 'nt'")
                try:
                    with c.transaction():
                        c.execute("DELETE FROM sp WHERE id = 801")
                        raise RuntimeError("app rollback")
                except RuntimeError:
                    out.append('app')
            out.append(c.execute("SELECT count(*), sum(v) FROM sp WHERE s = 'nt'").fetchone())
        out.append(c.execute("SELECT id, v FROM sp WHERE s = 'nt' ORDER BY id").fetchall())
        c.execute("DELETE FROM sp WHERE id >= 800")
    return out
a = run(dict(host='/tmp/h6pg', port=55436, user='postgres', dbname='postgres'))
b = run(dict(host='127.0.0.1', port=int(sys.argv[1]), user='me', dbname='numacube'))
print('same' if a == b else 'DIFF', '\n  pg', a, '\n  nc', b)

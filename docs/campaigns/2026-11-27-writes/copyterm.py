import sys, psycopg
port = int(sys.argv[1])
for name, dsn in [('nc', f'host=127.0.0.1 port={port} user=me dbname=numacube'), ('pg', 'host=/tmp/h12pg port=55412 user=postgres dbname=postgres')]:
    for fmt, data in [('csv', b'900,x\n\\.\n'), ('csv', b'901,x\n\\.\n902,after\n'), ('csv', b'903,"a\n\\.\nb"\n'), ('text', b'904\tx\n\\.\n905\tafter\n'), ('csv', b'906,x\r\n\\.\r\n'), ('text', b'907\tx\r\n'), ('csv', b'908,x'), ('text', b'909\tx')]:
        with psycopg.connect(dsn, autocommit=True) as c:
            try:
                with c.cursor() as cur:
                    with cur.copy(f"COPY t (id, s) FROM STDIN WITH (FORMAT {fmt})") as cp:
                        cp.write(data)
                    r = cur.rowcount
                rows = c.execute("SELECT id, s FROM t WHERE id >= 900 ORDER BY id").fetchall()
                print(name, fmt, repr(data), 'ok', r, rows)
            except Exception as e:
                print(name, fmt, repr(data), 'ERR', getattr(e, 'sqlstate', None), str(e).splitlines()[0])
            c.execute("DELETE FROM t WHERE id >= 900")

import sys, psycopg
PORT = int(sys.argv[1])
for name, dsn in [('nc', f'host=127.0.0.1 port={PORT} user=me dbname=numacube'), ('pg', 'host=/tmp/h12pg port=55412 user=postgres dbname=postgres')]:
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("DELETE FROM u WHERE id >= 2000")
        rows = ", ".join(f"({2000 + i}, {i * 3 - 7}, 's{i % 97}')" for i in range(20000))
        r1 = c.execute("INSERT INTO u (id, w, s) VALUES " + rows).statusmessage
        big = 'x' * 1_000_000 + 'é'
        r2 = c.execute(f"INSERT INTO u (id, s) VALUES (30000, '{big}')").statusmessage
        r3 = c.execute("UPDATE u SET s = s || 'z' WHERE id = 30000").statusmessage
        r4 = c.execute("DELETE FROM u WHERE id >= 2000 AND id % 3 = 0").statusmessage
        agg = c.execute("SELECT count(*), sum(w), count(DISTINCT s), max(length(s)) FROM u WHERE id >= 2000").fetchone()
        print(name, r1, r2, r3, r4, agg)
        c.execute("DELETE FROM u WHERE id >= 2000")

import duckdb
c = duckdb.connect()
c.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 0.10::DECIMAL(10,2), 7::BIGINT, 0.5::DOUBLE), (2, 1.25::DECIMAL(10,2), 8, 1.5), (3, 2.00::DECIMAL(10,2), 9, 2.5), (4, 99999999.99::DECIMAL(10,2), 10, 3.5)) v(id, d, i, x)")
for q in ["SELECT id FROM t WHERE d = '0.1000000000000000000001'",
          "SELECT id FROM t WHERE d = 0.1000000000000000000001",
          "SELECT id FROM t WHERE d < '1.2500000000000000000001' ORDER BY id",
          "SELECT id FROM t WHERE d IN (1.25, 1.50000000001) ORDER BY id",
          "SELECT greatest(i, x) / 2 AS g FROM t ORDER BY id",
          "SELECT CAST('2024-01-01 10:00:00+02' AS TIMESTAMP) AS ts",
          "SELECT CAST('2024-01-01 25:00' AS DATE)"]:
    try:
        print("==", q, c.execute(q).fetchall())
    except Exception as e:
        print("==", q, "ERROR", str(e)[:120])

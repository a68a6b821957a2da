#!/usr/bin/env python3
"""Open finding: the extended protocol's implicit transaction (the messages up to a Sync) is not all or none.

PostgreSQL runs a pipeline of Parse/Bind/Execute messages up to one Sync as one implicit transaction: an error rolls
back every statement of it. numacube applies an UPDATE or DELETE of such a block at once (with the rows kept before
it), so a later error leaves them applied. pgjdbc's executeBatch() in autocommit sends its batch that way too.

Usage: pipeline_atomicity.py PG_PORT   (against a server holding ledger(wid INT, nrows INT, amount LONG, ver LONG,
writer STRING), e.g. as driver.py creates it)
Prints what is left; PostgreSQL leaves wid 50 alone and none of 51, 52, 53.
"""
import sys

import psycopg

c = psycopg.connect(host="127.0.0.1", port=int(sys.argv[1]), user="x", dbname="x", autocommit=True)
c.execute("DELETE FROM ledger WHERE wid >= 50 AND wid <= 53")
c.execute("INSERT INTO ledger VALUES (50,1,0,0,'p')")
try:
    with c.pipeline():
        c.execute("INSERT INTO ledger VALUES (%s,1,0,0,'p')", (51,))
        c.execute("DELETE FROM ledger WHERE wid = %s", (50,))
        c.execute("INSERT INTO ledger VALUES (%s,1,0,0,'p')", (52,))
        c.execute("INSERT INTO ledger VALUES (%s,1,%s,0,'p')", (53, "zz"))
except psycopg.Error as e:
    print("pipeline error:", e.sqlstate, str(e).splitlines()[0])
left = c.execute("SELECT wid, count(*) FROM ledger WHERE wid >= 50 AND wid <= 53 GROUP BY wid ORDER BY wid").fetchall()
print("left:", left, "— PostgreSQL: [(50, 1)]")

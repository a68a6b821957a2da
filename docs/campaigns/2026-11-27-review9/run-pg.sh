#!/bin/bash
# a throwaway PostgreSQL 15 to compare (run as a non-root user if root is refused)
cd /tmp/review9
U=postgres; id $U >/dev/null 2>&1 || U=nobody
mkdir -p /tmp/review9/pg && chown $U /tmp/review9/pg
su $U -s /bin/bash -c "/usr/local/bin/initdb -D /tmp/review9/pg/data -A trust -U postgres >/tmp/review9/pg/initdb.log 2>&1 && /usr/local/bin/pg_ctl -D /tmp/review9/pg/data -o '-p 55440 -k /tmp/review9/pg' -l /tmp/review9/pg/log start -w >/dev/null"
P="psql -h /tmp/review9/pg -p 55440 -U postgres -d postgres -X -A"
$P -c "CREATE TABLE t (id bigint, d numeric(10,2), i bigint, x float8, s text)"
$P -c "INSERT INTO t VALUES (1,0.10,7,0.5,'a'),(2,1.25,8,1.5,'b'),(3,2.00,9,2.5,'c'),(4,99999999.99,10,3.5,'d')"
while IFS= read -r q; do echo "== $q"; $P -c "$q" 2>&1 | tail -6; done < cat.sql
while IFS= read -r q; do echo "== $q"; $P -c "$q" 2>&1 | tail -6; done < eng.sql
su $U -s /bin/bash -c "/usr/local/bin/pg_ctl -D /tmp/review9/pg/data stop -m fast >/dev/null"

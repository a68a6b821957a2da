#!/bin/bash
# run.sh SCRIPT.sql PGPORT_NUMACUBE: runs SCRIPT on PostgreSQL and numacube after a reset, writes .pg and .nc, diffs
cd /tmp/h12; f=$1; nc=$2; b=${f%.sql}
P="psql -X -v VERBOSITY=sqlstate -P pager=off -a"
psql -X -q -h /tmp/h12pg -p 55412 -U postgres -f reset.sql >/dev/null 2>&1
$P -h /tmp/h12pg -p 55412 -U postgres -f $f > $b.pg 2>&1
psql -X -q -h 127.0.0.1 -p $nc -U me numacube -f reset.sql >/dev/null 2>&1
$P -h 127.0.0.1 -p $nc -U me numacube -f $f > $b.nc 2>&1
sed -i 's/^psql:[^:]*:[0-9]*: //' $b.pg $b.nc
diff $b.pg $b.nc > $b.diff && echo "$f: same" || echo "$f: DIFF $(grep -c '^<' $b.diff)"

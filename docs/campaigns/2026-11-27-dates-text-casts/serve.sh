#!/bin/bash
# usage: serve.sh NAME [extra args]: numacube serve of /work/wt/hunt10 with table t, /tmp/hunt10/NAME.*
n=$1; shift
cd /work/wt/hunt10
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 ./numacube serve --table t=/tmp/hunt10/t.csv \
  --types t.id=BIGINT --types t.i=INTEGER --types t.b=BIGINT --types 't.d=DECIMAL(12,2)' --types t.x=DOUBLE \
  --types t.s=VARCHAR --types t.s2=VARCHAR --types t.dt=DATE --types t.ts=TIMESTAMP --types t.f=BOOLEAN \
  --http-port 0 --pg-port 0 --warm-up 0 --threads 2 "$@" > /tmp/hunt10/$n.out 2> /tmp/hunt10/$n.err &
echo $! > /tmp/hunt10/$n.pid
for i in $(seq 120); do grep -q ready /tmp/hunt10/$n.out 2>/dev/null && break; sleep 1; done
grep -o 'http://[^ ]*' /tmp/hunt10/$n.out > /tmp/hunt10/$n.url
grep -o 'postgresql://[^ ]*' /tmp/hunt10/$n.out | sed 's/.*://;s/[^0-9].*//' > /tmp/hunt10/$n.pgport
cat /tmp/hunt10/$n.out; tail -3 /tmp/hunt10/$n.err

#!/bin/bash
# usage: serve.sh NAME [extra args]: numacube serve of /work/wt/hunt9 with tables g and z (empty), /tmp/h9/NAME.*
n=$1; shift
cd /work/wt/hunt9
T="--types g.id=BIGINT --types g.k=VARCHAR --types g.k2=INTEGER --types g.i=INTEGER --types g.b=BIGINT --types g.d=DECIMAL(18,2) --types g.d2=DECIMAL(12,2) --types g.x=DOUBLE --types g.s=VARCHAR --types g.dt=DATE --types g.ts=TIMESTAMP --types g.f=BOOLEAN --types g.nn=BIGINT"
TZ=${T//g./z.}
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 ./numacube serve --table g=/tmp/h9/g.csv --table z=/tmp/h9/z.csv $T $TZ \
  --http-port 0 --pg-port 0 --warm-up 0 --threads 2 "$@" > /tmp/h9/$n.out 2> /tmp/h9/$n.err &
echo $! > /tmp/h9/$n.pid
for i in $(seq 120); do grep -q ready /tmp/h9/$n.out 2>/dev/null && break; sleep 1; done
grep -o 'http://[^ ]*' /tmp/h9/$n.out > /tmp/h9/$n.url
grep -o 'postgresql://[^ ]*' /tmp/h9/$n.out | sed 's/.*://;s/[^0-9].*//' > /tmp/h9/$n.pgport
cat /tmp/h9/$n.out; tail -3 /tmp/h9/$n.err

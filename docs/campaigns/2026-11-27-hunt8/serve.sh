#!/bin/bash
# usage: serve.sh NAME [extra args]: starts numacube serve of /work/wt-hunt8 with table e, waits for the ready line,
# writes /tmp/h8/NAME.{pid,url,pgport,out,err}
n=$1; shift
cd /work/wt-hunt8
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 ./numacube serve --table e=/tmp/h8/e.csv \
  --types e.id=BIGINT --types e.i=INTEGER --types e.b=BIGINT --types 'e.d=DECIMAL(12,2)' --types 'e.d4=DECIMAL(18,4)' \
  --types e.x=DOUBLE --types e.s=VARCHAR --types e.dt=DATE --types e.ts=TIMESTAMP \
  --http-port 0 --pg-port 0 --warm-up 0 --threads 2 "$@" > /tmp/h8/$n.out 2> /tmp/h8/$n.err &
echo $! > /tmp/h8/$n.pid
for i in $(seq 120); do grep -q ready /tmp/h8/$n.out 2>/dev/null && break; sleep 1; done
grep -o 'http://[^ ]*' /tmp/h8/$n.out > /tmp/h8/$n.url
grep -o 'postgresql://[^ ]*' /tmp/h8/$n.out | sed 's/.*://;s/[^0-9].*//' > /tmp/h8/$n.pgport
cat /tmp/h8/$n.out; tail -3 /tmp/h8/$n.err

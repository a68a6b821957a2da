#!/bin/bash
# serve.sh NAME [extra args]: start numacube in the background, wait for ready, write NAME.pid and NAME.port/NAME.http
n=$1; shift
T=(--table t=/tmp/h12/t.csv --schema "t=id BIGINT, v BIGINT, s VARCHAR, d DECIMAL(12,2), dt DATE, b BOOLEAN, f DOUBLE"
   --table u=/tmp/h12/u.csv --schema "u=id BIGINT, w BIGINT, s VARCHAR"
   --table k=/tmp/h12/k.csv --schema "k=id BIGINT, v BIGINT, s VARCHAR" --key k=id)
[[ "$1" == --recover ]] && { T=(); shift; }
cd "${NUMACUBE_ROOT:-/work/wt/hunt12}"
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 ./numacube serve "${T[@]}" "$@" --http-port 0 --pg-port 0 --warm-up 0 --threads 2 > /tmp/h12/$n.out 2> /tmp/h12/$n.err &
echo $! > /tmp/h12/$n.pid
for i in $(seq 120); do grep -q ready /tmp/h12/$n.out 2>/dev/null && break; sleep 1; done
grep -o 'postgresql://[^ ]*' /tmp/h12/$n.out | sed 's/.*://' > /tmp/h12/$n.port
grep -o 'http://[^ ]*' /tmp/h12/$n.out > /tmp/h12/$n.http
cat /tmp/h12/$n.out

#!/bin/bash
cd /work/wt/hunt9
A=""
for n in snappy zstd gzip uncompressed lz4_raw rg v2 v2_rg nodict; do A="$A --table p_$n=/tmp/h9/pq/all_$n.parquet"; done
A="$A --table p_corrupt=/tmp/h9/pq/corrupt_mid.parquet --table p_one=/tmp/h9/pq/one.parquet --table p_empty=/tmp/h9/pq/empty.parquet"
A="$A --table big=/tmp/h9/pq/big.parquet"; for f in pa_fallback pa_v2 pa_int96 pa_delta pa_bss; do A="$A --table $f=/tmp/h9/pq/$f.parquet"; done
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 ./numacube serve $A --http-port 0 --pg-port 0 --warm-up 0 --threads 2 "$@" > /tmp/h9/pq.out 2> /tmp/h9/pq.err &
echo $! > /tmp/h9/pq.pid
for i in $(seq 180); do grep -q ready /tmp/h9/pq.out 2>/dev/null && break; sleep 1; done
grep -o 'http://[^ ]*' /tmp/h9/pq.out > /tmp/h9/pq.url
cat /tmp/h9/pq.out; grep -v "^-- \(following\|numa=\|pivot\)" /tmp/h9/pq.err | tail -30

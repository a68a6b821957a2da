#!/bin/bash
# start.sh NAME [args]: starts numacube, waits for ready, writes NAME.pid and NAME.port
cd /tmp/h7; n=$1; shift
(./serve.sh /tmp/h7/$n "$@" & echo $! > /tmp/h7/$n.pid)
for i in $(seq 60); do grep -q ready /tmp/h7/$n.out 2>/dev/null && break; sleep 1; done
grep -o 'postgresql://[^ ]*' /tmp/h7/$n.out | sed 's/.*://' > /tmp/h7/$n.port; cat /tmp/h7/$n.port

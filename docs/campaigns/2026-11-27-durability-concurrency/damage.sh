#!/bin/bash
# Helpers for the by-hand damage cases of 2026-11-27-durability-concurrency.md: `source damage.sh; setup 8;` (a data
# dir with 8 acknowledged writes, killed -9), then damage it (truncate, dd conv=notrunc, rm MANIFEST, chattr +i) and
# `start; q` (restart, count rows). E.g. `setup 8; truncate -s -10 $R/d/wal/wal-*.log; start; q`.

R=/tmp/c5d/x; N=/work/wt-crash5/numacube; export NUMACUBE_NO_BUILD=1
start() { ( $N serve --data-dir $R/d --http-port 0 --pg-port 0 --warm-up 0 "$@" > $R/s.log 2>&1 & echo $! > $R/pid ); for i in $(seq 1 120); do grep -q 'numacube ready' $R/s.log && break; kill -0 $(cat $R/pid) 2>/dev/null || break; sleep 0.5; done; H=$(grep -o 'http://[^ ]*' $R/s.log | tail -1); }
setup() { rm -rf $R; mkdir -p $R; printf 'wid,nrows,amount,ver,writer\n0,2,5,0,seed\n0,2,-5,0,seed\n' > $R/l.csv
  start --table ledger=$R/l.csv --schema "ledger=wid INT, nrows INT, amount LONG, ver LONG, writer STRING"
  for w in $(seq 1 ${1:-8}); do printf "wid,nrows,amount,ver,writer\n$w,2,$w,0,c\n$w,2,-$w,0,c\n" | curl -s -H 'Content-Type: text/csv' --data-binary @- $H/v1/tables/ledger/rows >/dev/null; done
  kill -9 $(cat $R/pid); sleep 0.3; }
q() { curl -s $H/v1/query -H 'Content-Type: text/plain' -d "SELECT count(*) c, count(DISTINCT wid) w, sum(amount) s FROM ledger" | grep -o '"rows":[^]]*]'; }

#!/bin/bash
# each Parquet file on its own: numacube query "SELECT * FROM t" (csv), exit code and stderr's last lines
cd /work/wt/hunt9
for f in "$@"; do
  echo "=== $f"
  NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 timeout 120 ./numacube query --threads 2 --format csv --table t=/tmp/h9/pq/$f "SELECT * FROM t" > /tmp/h9/out_$f.csv 2> /tmp/h9/err_$f.txt
  echo "rc=$?"; grep -v "^-- \|^\s*$" /tmp/h9/err_$f.txt | head -5; head -c 600 /tmp/h9/out_$f.csv; echo
done

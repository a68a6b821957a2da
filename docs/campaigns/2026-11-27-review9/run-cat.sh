#!/bin/bash
cd /tmp/review9
source /work/main/tools/jdk.sh >/dev/null; numacube_find_jdk >/dev/null
CP='/tmp/review9-cli/numacube-cli.jar:/tmp/review9-cli/lib/*'
"$JAVA_HOME/bin/java" -Xmx1g --enable-native-access=ALL-UNNAMED -cp "$CP" io.numacube.cli.Main serve \
  --table t=d.csv --types 't.d=DECIMAL(10,2)' --pg-port 55439 --http-port 0 > serve.out 2>&1 &
echo $! > serve.pid
for i in $(seq 1 60); do grep -qi "ready\|listening" serve.out && break; sleep 1; done
cat serve.out | tail -3
while IFS= read -r q; do
  echo "== $q"; psql -h 127.0.0.1 -p 55439 -U numacube -d numacube -X -A -c "$q" 2>&1 | tail -6
done < cat.sql
kill $(cat serve.pid)

#!/bin/bash
cd /tmp/review9
source /work/main/tools/jdk.sh >/dev/null; numacube_find_jdk >/dev/null
CP='/tmp/review9-cli/numacube-cli.jar:/tmp/review9-cli/lib/*'
for q in "SELECT lpad('a', 4611686018427387904, 'x') AS p" "SELECT lpad('a', 300000000, 'x') AS p"; do
echo "== $q (-Xmx256m)"
timeout 60 "$JAVA_HOME/bin/java" -Xmx256m --enable-native-access=ALL-UNNAMED -cp "$CP" io.numacube.cli.Main query \
  --table t=d.csv --format csv "$q" 2>&1 | tail -3 | cut -c1-300
done

#!/bin/bash
# engine repros with the CLI built from main at 20c783a's parent (jar copied to /tmp/review9-cli)
cd /tmp/review9
source /work/main/tools/jdk.sh >/dev/null; numacube_find_jdk >/dev/null
CP='/tmp/review9-cli/numacube-cli.jar:/tmp/review9-cli/lib/*'
while IFS= read -r q; do
  [ -z "$q" ] && continue
  echo "== $q"
  timeout 60 "$JAVA_HOME/bin/java" -Xmx1g --enable-native-access=ALL-UNNAMED -cp "$CP" io.numacube.cli.Main query \
    --table t=d.csv --types 't.d=DECIMAL(10,2)' --format csv "$q" 2>&1 | grep -v '^loaded\|^ *[a-z_]* [A-Z]\|schema' | tail -8
done < ${SQL:-eng.sql}

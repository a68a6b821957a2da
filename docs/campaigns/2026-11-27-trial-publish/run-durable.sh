#!/bin/bash
cd /tmp/onceapply-bench
source /work/wt-onceapply/tools/jdk.sh >/dev/null; numacube_find_jdk >/dev/null; export PATH=$JAVA_HOME/bin:$PATH
DEPS=$(cat deps.txt)
NEW=/tmp/onceapply-bench/t1/numa:/tmp/onceapply-bench/t1/engine:/tmp/onceapply-bench/t1/server
OLD=/tmp/onceapply-base/numa/target/classes:/tmp/onceapply-base/engine/target/classes:/tmp/onceapply-base/server/target/classes
for i in 1 2; do
  for v in old new; do
    if [ $v = old ]; then CP=$OLD; else CP=$NEW; fi
    java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx2g -cp cls:$CP:$DEPS BlockBench $v 4 durable 2>/dev/null
  done
done

#!/bin/bash
# CatalogExactnessTest from main's built test classes, with the worktree's answers file first on the class path
cd /tmp/review9
cp /work/wt-review9/server/src/test/resources/io/numacube/server/pgwire/catalog/postgresql-answers.txt res/io/numacube/server/pgwire/catalog/
source /work/main/tools/jdk.sh >/dev/null; numacube_find_jdk >/dev/null
J=/root/.m2/repository/org/junit/platform/junit-platform-console-standalone/1.11.4/junit-platform-console-standalone-1.11.4.jar
timeout 300 "$JAVA_HOME/bin/java" -Xmx1g --enable-native-access=ALL-UNNAMED \
  -cp "/tmp/review9/res:/tmp/review9/tc/server-test-classes:/tmp/review9-cli/lib/*:$J" \
  org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=tree \
  --select-class io.numacube.server.pgwire.catalog.CatalogExactnessTest 2>&1 | grep -v "✔" | tail -40

#!/bin/bash
cd /work/wt-hunt6
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 exec ./numacube serve --generate 10000 --table p=/tmp/h6/p.csv --table sp=/tmp/h6/sp.csv --types sp.id=BIGINT --types sp.v=BIGINT --types sp.s=VARCHAR \
 --types p.id=BIGINT --types p.i=INTEGER --types p.d='DECIMAL(12,2)' --types p.d3='DECIMAL(18,4)' --types p.x=DOUBLE --types p.dt=DATE --types p.ts=TIMESTAMP --types p.s=VARCHAR --types p.b=BOOLEAN \
 --http-port 0 --pg-port 0 --warm-up 0 --threads 2 "$@" > /tmp/h6/serve.out 2> /tmp/h6/serve.err

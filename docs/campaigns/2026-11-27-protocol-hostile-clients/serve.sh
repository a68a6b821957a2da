#!/bin/bash
# Starts numacube serve on fixed ports (HTTP 55581, pgwire 55582) with --generate data and an empty table w.
# Appendix of the campaign: reads and writes /tmp/hunt11.
cd "$(dirname "$0")/../../.."
mkdir -p /tmp/hunt11
printf 'k,v,s\n1,10,a\n2,20,b\n' > /tmp/hunt11/w.csv
NUMACUBE_NO_BUILD=1 exec ./numacube serve --generate 100000 --table w=/tmp/hunt11/w.csv \
  --http-port ${HTTP_PORT:-55581} --pg-port ${PG_PORT:-55582} --warm-up 0 --threads 2 "$@"

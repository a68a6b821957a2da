#!/bin/bash
# usage: serve.sh OUTPREFIX [extra args]
cd /work/wt-hunt7
p=$1; shift
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 exec ./numacube serve  "$@" --http-port 0 --pg-port 0 --warm-up 0 --threads 2 > $p.out 2> $p.err

#!/bin/bash
# usage: serve.sh LOG [extra java opts]
LOG=$1; shift
T=/work/wt-hunt5/build/tpch/sf0.01
cd /work/wt-hunt5
TABLES=""
for t in lineitem orders customer nation region part partsupp supplier; do TABLES="$TABLES --table $t=$T/$t.parquet"; done
NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=0 NUMACUBE_JAVA_OPTS="$*" exec ./numacube serve $TABLES \
  --table a=/tmp/h5/a.csv --table b=/tmp/h5/b.csv --table c=/tmp/h5/c.csv --table cn=/tmp/h5/cn.csv --table e=/tmp/h5/e.csv --table f=/tmp/h5/f.csv --table s=/tmp/h5/s.csv --table wd=/tmp/h5/wd.csv --types wd.wk=INTEGER --types wd.wname=VARCHAR --types wd.wv=BIGINT --types f.fk=BIGINT --types f.fi=INTEGER --types f.fd='DECIMAL(10,2)' --types f.fx=DOUBLE --types f.fs=VARCHAR --types f.grp=VARCHAR --types s.sk=BIGINT --types s.sv=INTEGER --types s.sd='DECIMAL(10,2)' \
  --types a.id=BIGINT --types a.k=BIGINT --types a.g=VARCHAR --types a.v=BIGINT --types a.d='DECIMAL(10,2)' --types a.x=DOUBLE --types a.dt=DATE --types a.m=INTEGER \
  --types b.k=BIGINT --types b.name=VARCHAR --types b.w=INTEGER --types b.d2='DECIMAL(8,3)' \
  --types c.ck=BIGINT --types c.cat=INTEGER --types cn.ck=BIGINT --types cn.cat=INTEGER \
  --types e.ek=BIGINT --types e.ev=BIGINT \
  --http-port 0 --pg-port 0 --warm-up 0 --threads 2 --morsel-rows 512 > $LOG.out 2> $LOG.err

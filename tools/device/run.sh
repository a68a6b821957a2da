#!/usr/bin/env bash
# Runs on the lent machine from the repository root (bash .dev/run.sh): unpacks what tools/device/pack made, then runs the bench
# sections a quiet many-core machine can answer: probe and peers, tpch, policies and scaling (only with 2+ NUMA nodes), serve.
# Env: SECTIONS (of: peers tpch policies serve), ROWS (peers rows), T_PEERS, T_TPCH, T_POL, T_SERVE (seconds per section), QUICK=1 (smoke sizes), OUT (results).
set -u
R=$PWD; OUT=${OUT:-/tmp/devout}; mkdir -p "$OUT"; QUICK=${QUICK:-0}
exec > >(tee "$OUT/run.log") 2>&1
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
el "machine"; uname -a; nproc; free -g | head -2; lscpu | grep -i -E 'model name|numa|socket|core|thread' ; ls /sys/devices/system/node/ | grep node; cat /sys/devices/system/node/node*/cpulist 2>/dev/null
X=${X:-/root/x}; rm -rf "$X"; mkdir -p "$X"
python3 - "$R" "$X" <<'PY'
import sys, tarfile, zipfile, os
r, x = sys.argv[1], sys.argv[2]
tarfile.open(f"{r}/.dev/jre.tar.xz").extractall(x)
tarfile.open(f"{r}/.dev/stage.tar.xz").extractall(f"{x}/stage")
if os.path.exists(f"{r}/.dev/overlay.tar.xz"):  # newer numacube jars over an older stage (tools/device/pack --overlay)
    import shutil
    ov = tarfile.open(f"{r}/.dev/overlay.tar.xz")
    for top in {m.name.lstrip("./").split("/")[0] + ("/" + m.name.lstrip("./").split("/")[1] if m.name.lstrip("./").startswith("lib/") and m.name.count("/") > 1 else "") for m in ov.getmembers() if m.name.lstrip("./")}:
        if top != "lib": shutil.rmtree(f"{x}/stage/{top}", ignore_errors=True)
    ov.extractall(f"{x}/stage")
def jar(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as z:
        m = os.path.join(src, "META-INF/MANIFEST.MF")
        if os.path.exists(m): z.write(m, "META-INF/MANIFEST.MF")
        for d, _, fs in os.walk(src):
            for f in fs:
                p = os.path.join(d, f); a = os.path.relpath(p, src)
                if a != "META-INF/MANIFEST.MF": z.write(p, a)
lib = f"{r}/bench/target/lib"
for n in os.listdir(f"{x}/stage/lib"): jar(f"{x}/stage/lib/{n}", f"{lib}/{n}.jar")
jar(f"{x}/stage/numacube-bench", f"{r}/bench/target/numacube-bench.jar")
jar(f"{x}/stage/numacube-cli", f"{r}/cli/target/numacube-cli.jar")
PY
rm -rf "$R/cli/target/lib"; ln -s "$R/bench/target/lib" "$R/cli/target/lib"
chmod +x "$X"/jre2/bin/*
export JAVA_HOME=$X/jre2 NUMACUBE_NO_BUILD=1 NUMACUBE_AOT=${NUMACUBE_AOT:-0} PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1; unset CI
el "unpacked"; "$JAVA_HOME/bin/java" -version
timeout 30 ./numacube doctor; el "doctor rc=$?"
NODES=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
b() { local s=$1 t=$2; shift 2; el "bench $s (limit ${t}s)"; timeout -k 5 "$t" ./numacube bench --sections "$s" --json "$OUT/bench-${s//,/-}.json" --charts /tmp/devcharts "$@"; el "bench $s rc=$?"; }
if [[ $QUICK == 1 ]]; then q=--quick; else q=; fi
S=" ${SECTIONS:-peers tpch policies serve} "
[[ $S == *" peers "* ]] && b probe,peers ${T_PEERS:-200} $q --rows ${ROWS:-50000000}
[[ $S == *" tpch "* ]] && b tpch ${T_TPCH:-190} $q
[[ $S == *" policies "* ]] && (( NODES > 1 )) && b policies,scaling ${T_POL:-90} $q
[[ $S == *" serve "* ]] && b serve ${T_SERVE:-80} $q
el "done"

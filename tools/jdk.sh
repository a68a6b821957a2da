# shellcheck shell=bash
# Sourced by numacube's scripts: finds a JDK >= 22 (numacube needs the Foreign Function & Memory API
# and is built for 25) and exports JAVA_HOME and JAVA. Order: $JAVA_HOME, then /usr/lib/jvm/*,
# then the java on PATH. Never trusts the default `java` blindly: on these machines it is 17.

numacube_jdk_feature() {   # JAVA_EXE -> feature version (17, 25, ...) or nothing
  local v release
  # The JDK's release file answers without starting a JVM (a start costs 5-10 s under QEMU emulation).
  release=$(dirname "$(dirname "$1")")/release
  if [[ -r $release ]]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9.]*\).*"$/\1/p' "$release" | head -n1)
    [[ $v =~ ^1\.([0-9]+) ]] && v=${BASH_REMATCH[1]}
    v=${v%%.*}
    [[ $v =~ ^[0-9]+$ ]] && { echo "$v"; return 0; }
  fi
  v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1)
  [[ $v =~ ^1\.([0-9]+)$ ]] && v=${BASH_REMATCH[1]}
  [[ $v =~ ^[0-9]+$ ]] && echo "$v"
}

numacube_find_jdk() {
  local want=${NUMACUBE_MIN_JDK:-25} cand best="" best_v=0 v
  local -a cands=()
  [[ -n ${JAVA_HOME:-} ]] && cands+=("$JAVA_HOME")
  for cand in /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk*; do [[ -d $cand ]] && cands+=("$cand"); done
  if command -v java >/dev/null 2>&1; then
    cands+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for cand in "${cands[@]}"; do
    [[ -x $cand/bin/java && -x $cand/bin/javac ]] || continue
    v=$(numacube_jdk_feature "$cand/bin/java") || continue
    if [[ $cand == "${JAVA_HOME:-}" ]] && (( v >= want )); then best=$cand best_v=$v; break; fi
    if (( v > best_v )); then best=$cand best_v=$v; fi
  done
  if [[ -z $best ]] || (( best_v < want )); then
    {
      echo "numacube: no JDK >= $want found (looked at \$JAVA_HOME, /usr/lib/jvm/*, and the java on PATH${best:+; best was $best, version $best_v})."
      echo "numacube: install one, e.g. 'apt-get install temurin-25-jdk' (Adoptium) or 'openjdk-25-jdk', or set JAVA_HOME to it."
    } >&2
    return 1
  fi
  export JAVA_HOME=$best
  export JAVA=$best/bin/java
}

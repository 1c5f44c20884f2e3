#!/usr/bin/env bash
# Measures `agent-skills search` over a 10,000-skill, 30,000-version
# skills.yaml (about 7.6 MB, the shape registry.EncodeYAML writes) as whole
# processes, two binaries side by side, alternating in one series:
#
#   scripts/bench-index.sh OLD_BINARY NEW_BINARY [ROUNDS]
#
# cold: a new AGENT_SKILLS_HOME per run (no decoded-index cache entry);
# warm: one AGENT_SKILLS_HOME per binary, its cache entry made beforehand.
# Prints each run's wall time (ms, process included) and peak RSS
# (/usr/bin/time), the per-pair ratios OLD/NEW and the medians. Nothing is
# deleted until the series ends (deleting folders between runs slows file
# creation on ext4 without a journal). Not run by CI.
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") rounds=${3:-11}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-index.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/reg/registry"
awk 'BEGIN {
  split("java jvm gc performance kotlin sql python testing security docs", w, " ")
  print "schemaVersion: 1"; print "name: big"; print "skills:"
  for (i = 0; i < 10000; i++) {
    n = sprintf("%s-%s-skill-%05d", w[i%10+1], w[int(i/10)%10+1], i)
    print "  - name: " n
    printf "    description: Skill number %d about %s and %s. Use when working with %s code.\n", i, w[i%10+1], w[int(i/7)%10+1], w[int(i/3)%10+1]
    printf "    keywords: [%s, %s, %s]\n", w[i%10+1], w[int(i/10)%10+1], w[int(i/100)%10+1]
    print "    versions:"
    for (v = 2; v >= 0; v--) {
      printf "      - version: 1.%d.0\n", v
      print "        path: skills/" n
      print "        integrity: sha256-17RQTh7Vng1wl0rYZukbE03Ow7kbNy3nM3KL7FRLMpk="
      print "        publishedAt: \"2026-08-23T00:00:00Z\""
      if (v == 0) print "        deprecated: true"
    }
  }
}' >"$work/reg/registry/skills.yaml"
echo "index: $(wc -c <"$work/reg/registry/skills.yaml") bytes, $rounds rounds"

export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_CACHE_HOME=$work/home/.cache
export NO_COLOR=1 AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 GIT_ALLOW_PROTOCOL=file
mkdir -p "$HOME"
AGENT_SKILLS_HOME=$work/config "$new" registry add big "$work/reg" >/dev/null

# run LABEL BINARY HOME: one search; prints "LABEL ms KB".
run() {
  local t0 t1
  t0=$(date +%s%N)
  AGENT_SKILLS_HOME=$3 /usr/bin/time -f %M -o "$work/rss" "$2" search java performance --registry big >/dev/null
  t1=$(date +%s%N)
  echo "$1 $(((t1 - t0) / 1000)) $(cat "$work/rss")"
}

# home NAME: a fresh AGENT_SKILLS_HOME with the configuration.
home() {
  mkdir -p "$work/homes/$1"
  cp "$work/config/config.json" "$work/homes/$1/"
  echo "$work/homes/$1"
}

sleep 2.2 # let the index settle: a file changed within 2 s is hashed, not trusted
: >"$work/results"
for i in $(seq "$rounds"); do
  run cold-old "$old" "$(home "cold-old-$i")" >>"$work/results"
  run cold-new "$new" "$(home "cold-new-$i")" >>"$work/results"
done
wold=$(home warm-old) wnew=$(home warm-new)
run prime "$old" "$wold" >/dev/null
run prime "$new" "$wnew" >/dev/null
for i in $(seq "$rounds"); do
  run warm-old "$old" "$wold" >>"$work/results"
  run warm-new "$new" "$wnew" >>"$work/results"
done

awk '
  { us[$1, ++n[$1]] = $2; kb[$1, n[$1]] = $3 }
  function median(a, k, m,   i, j, t, v) {
    for (i = 1; i <= m; i++) v[i] = a[k, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  END {
    split("cold warm", kinds, " ")
    for (k = 1; k <= 2; k++) {
      o = kinds[k] "-old"; w = kinds[k] "-new"; m = n[o]
      printf "%s:\n  pair  old ms  new ms  old/new  old MiB  new MiB\n", kinds[k]
      for (i = 1; i <= m; i++) {
        r[o, i] = us[o, i] / us[w, i]
        printf "  %4d  %6.1f  %6.1f  %7.2f  %7.1f  %7.1f\n", i, us[o, i] / 1000, us[w, i] / 1000, r[o, i], kb[o, i] / 1024, kb[w, i] / 1024
      }
      printf "  median  old %.1f ms  new %.1f ms  ratio %.2f  peak RSS old %.1f MiB  new %.1f MiB\n",
        median(us, o, m) / 1000, median(us, w, m) / 1000, median(r, o, m), median(kb, o, m) / 1024, median(kb, w, m) / 1024
    }
  }' "$work/results"

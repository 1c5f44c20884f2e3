#!/usr/bin/env bash
# Runs every Go fuzz target of the given modules for $FUZZTIME each.
# A target is found by its "func FuzzXxx(" line; each runs in its own
# package, one at a time (go test -fuzz takes one target per run).
#
# The budget is a count of executions ("2000x"), not a duration: with a
# duration, Go 1.26's fuzz coordinator can report "context deadline
# exceeded" at the end of a clean run (golang/go#75804, fixed in Go 1.27),
# which would make CI fail at random. -timeout bounds a slow target.
# make fuzz-long passes FUZZTIME=60s; there that spurious report alone
# is not counted as a failure.
set -euo pipefail
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-2000x}
status=0
# A duration budget gets a longer test timeout than a count.
timeout=5m
case $FUZZTIME in *s|*m) timeout=15m ;; esac
# deadline_only reports a log whose only failure is the fuzz coordinator's
# "context deadline exceeded" after a clean run: the one failure line
# under "--- FAIL" is that message, no failing input was written and
# nothing panicked.
deadline_only() {
  grep -A1 -e '^--- FAIL' "$1" | grep -v -e '^--- FAIL' -e '^--$' | grep -qv 'context deadline exceeded' && return 1
  grep -q 'context deadline exceeded' "$1" && ! grep -q -e 'Failing input written' -e 'panic:' "$1"
}
for m in "$@"; do
  [ -d "$m" ] || continue
  while IFS= read -r line; do
    file=${line%%:*}
    name=$(sed -E 's/^.*func (Fuzz[A-Za-z0-9_]+)\(.*$/\1/' <<<"${line#*:}")
    pkg=./$(dirname "${file#"$m"/}")
    echo "fuzz $m $pkg $name ($FUZZTIME)"
    if ! (cd "$m" && GOWORK=off "$GO" test -run='^$' -fuzz="^${name}\$" -fuzztime="$FUZZTIME" -fuzzminimizetime=200x -timeout="$timeout" "$pkg" >/tmp/fuzz-$$.log 2>&1); then
      if deadline_only /tmp/fuzz-$$.log; then
        echo "  clean: go1.26 reported its own fuzz deadline at the end of a clean run (golang/go#75804)"
      else
        cat /tmp/fuzz-$$.log; status=1
      fi
    fi
  done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(' "$m" || true)
done
rm -f /tmp/fuzz-$$.log
exit $status

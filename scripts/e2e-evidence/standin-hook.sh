#!/bin/sh
# A stand-in for `agent-skills hook observe` while the build has no such command
# (E2E_EVIDENCE_STANDIN=1): saves the hook's stdin as DIR/<host>-<n>.json, prints
# nothing and exits 0. Usage: standin-hook.sh HOST DIR
mkdir -p "$2"
cat >"$2/$1-$(date +%s%N).json"

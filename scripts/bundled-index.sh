#!/usr/bin/env bash
# Regenerate the bundled collection's derived files after adding, removing or
# changing a package under skills/:
#
#   skills/registry/skills.yaml   the bundled registry index (name, version,
#                                 path and integrity of every package)
#   skills/skills-catalog.json    the collection catalog, as
#                                 agent-skills catalog build skills writes it
#
# Both are checked by tests that fail when either is stale
# (TestBundledIndexFresh and TestBundledCatalogFresh in cli/bundled_test.go).
# The script validates the collection first, writes both files, then runs the
# checks once more: validate --strict, catalog build --check, the two tests and
# the collection's own tests. Run it from anywhere in the repository; it
# writes nothing else. --check only verifies, as CI does.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root/cli"

mode=write
if [ "${1:-}" = "--check" ]; then
    mode=check
elif [ $# -gt 0 ]; then
    echo "usage: scripts/bundled-index.sh [--check]" >&2
    exit 2
fi

ask() { go run ./cmd/agent-skills --no-update-check --offline "$@"; }

ask validate ../skills --strict

if [ "$mode" = write ]; then
    # The index first: the catalog does not depend on it, and the index
    # test reads only the packages.
    UPDATE_BUNDLED_INDEX=1 go test -count=1 -run '^TestBundledIndexFresh$' . >/dev/null
    ask catalog build ../skills
fi

ask catalog build ../skills --check
go test -count=1 -run '^(TestBundledIndexFresh|TestBundledCatalogFresh)$' .
(cd "$root/skills" && go test -count=1 ./...)
echo "bundled index and catalog are fresh"

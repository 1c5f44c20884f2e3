#!/usr/bin/env bash
# release-check: would a release of this tree work for someone who imports
# it? Copies the work tree (tracked and untracked, not ignored files) to a
# temporary directory, bumps the copy to VERSION with tools/release, writes
# a file-system module proxy of it, and in an importer module outside the
# repository (GOWORK=off, no replace directives) go-gets format, validate,
# resolve, agents and registry at VERSION and runs their Examples; then
# `go install .../cli/cmd/agent-skills@VERSION` and runs its --version.
# Before the importer, the cli module itself is built as GoReleaser builds
# it at the tag: GOWORK=off, -mod=readonly, its own go.sum.
#
# Offline apart from third-party modules, which come from the module cache
# (read as a proxy) before the network. See docs/modules.md.
set -euo pipefail

VERSION=${1:-0.0.1-check}
GO=${GO:-go}
case $VERSION in v*) ;; *) VERSION=v$VERSION ;; esac
PREFIX=github.com/agent-skills/agent-skills
PACKAGES="format validate resolve agents registry"

root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/release-check.XXXXXX")
cleanup() { chmod -R u+w "$tmp" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

# The tree as it is now, uncommitted changes included.
mkdir "$tmp/tree"
(cd "$root" && git ls-files -z -co --exclude-standard | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
	tar -C "$root" --null -T - -cf - | tar -C "$tmp/tree" -xf -

(cd "$root/tools/release" && GOWORK=off "$GO" build -o "$tmp/release" .)
"$tmp/release" -C "$tmp/tree" bump "$VERSION" >/dev/null
"$tmp/release" -C "$tmp/tree" proxy "$VERSION" "$tmp/proxy"

# The importer: a module of its own, outside the repository, with no
# replace directives and no workspace. go.sum starts from the repository's
# own go.sum files, so third-party modules are checked against the hashes
# the repository already trusts, without asking the checksum database.
mkdir "$tmp/importer"
cat >"$tmp/importer/go.mod" <<MOD
module example.com/importer

go 1.26.0
MOD
{
	echo "package main"
	echo
	echo "import ("
	for p in $PACKAGES; do echo "	_ \"$PREFIX/$p\""; done
	echo ")"
	echo
	echo "func main() {}"
} >"$tmp/importer/main.go"
cat "$root"/*/go.sum | sort -u >"$tmp/importer/go.sum"

cache=$("$GO" env GOMODCACHE)
# GOPROXY: our proxy first, then the module cache's download directory
# (itself a valid file proxy, so no network for what is cached), then the
# usual proxy for what is not. GOMODCACHE: a fresh one, so that the check
# version is never served from, or left in, the real module cache.
# GONOSUMDB: our modules only; their check versions are in no checksum
# database. Everything else is verified as usual: against the importer's
# go.sum, and for go install (which has no go.sum) against the checksum
# database, whose cached answers are copied into the fresh module cache.
export GOWORK=off GOFLAGS="-mod=mod -modcacherw" GOTOOLCHAIN=local
export GOPROXY="file://$tmp/proxy,file://$cache/cache/download,$("$GO" env GOPROXY)"
export GONOSUMDB="$PREFIX" GOMODCACHE="$tmp/modcache"
unset GOPRIVATE GONOPROXY
if [ -d "$cache/cache/download/sumdb" ]; then
	mkdir -p "$GOMODCACHE/cache/download"
	cp -R "$cache/cache/download/sumdb" "$GOMODCACHE/cache/download/"
fi
# The binary, as GoReleaser builds it at the release tag: in the cli module
# with GOWORK=off and its go.mod as the tag holds it (no replace
# directives: the proxy's .mod), so every sibling comes from the proxy and
# is verified against cli/go.sum. A sibling without a go.sum line fails
# ("missing go.sum entry"), and so does a wrong hash ("checksum mismatch").
# A module cache of its own, so that no earlier download is reused.
cp "$tmp/proxy/$PREFIX/cli/@v/$VERSION.mod" "$tmp/tree/cli/go.mod"
(cd "$tmp/tree/cli" && GOMODCACHE="$tmp/modcache-build" GOFLAGS="-mod=readonly -modcacherw" \
	"$GO" build -o /dev/null ./cmd/agent-skills) ||
	{ echo "release-check: the cli module does not build at the tag as GoReleaser builds it (GOWORK=off, -mod=readonly)"; exit 1; }
echo "ok   cli at the tag builds with GOWORK=off -mod=readonly against its own go.sum"

cd "$tmp/importer"
mods=()
for p in $PACKAGES; do mods+=("$PREFIX/$p@$VERSION"); done
"$GO" get -t "${mods[@]}"
"$GO" build -o /dev/null .
pkgs=()
for p in $PACKAGES; do pkgs+=("$PREFIX/$p"); done
# -v, to count the Examples that ran: a package whose Examples all
# vanished would otherwise pass with "no tests to run".
"$GO" test -count=1 -v -run '^Example' "${pkgs[@]}" >"$tmp/test.log" 2>&1 || { cat "$tmp/test.log"; exit 1; }
awk '/^--- PASS: Example/ { n++ }
	/^ok / { printf "ok   %s  %d Examples\n", $2, n; if (n == 0) bad = 1; n = 0 }
	END { exit bad }' "$tmp/test.log" || { echo "release-check: a package ran no Example"; exit 1; }

# The binary, as `go install` fetches it: refused if cli's go.mod at the
# tag had replace directives (tools/release drops them in the release commit).
(cd "$tmp" && GOFLAGS=-modcacherw GOBIN="$tmp/bin" "$GO" install "$PREFIX/cli/cmd/agent-skills@$VERSION")
"$tmp/bin/agent-skills" --version
echo "release-check: $VERSION of $PACKAGES imports and runs its Examples from outside the repository; go install of the CLI works"

#!/usr/bin/env bash
# Builds the release archives with GoReleaser (.goreleaser.yaml) into dist/.
#
#   scripts/dist.sh            a snapshot: every archive, checksums.txt, the
#                              Homebrew formula and releases.json, nothing
#                              published (make dist)
#   scripts/dist.sh --release  the release of the v* tag at HEAD: the same,
#                              then published to GitHub and the tap
#                              (docs/release.md; needs GITHUB_TOKEN and
#                              HOMEBREW_TAP_GITHUB_TOKEN)
#
# GoReleaser is compiled once, at the version the Makefile pins, into
# .tools/bin (gitignored), and reused while that version stays.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
GORELEASER_VERSION=${GORELEASER_VERSION:?set by the Makefile}
tools=$PWD/.tools/bin
goreleaser=$tools/goreleaser

if ! "$goreleaser" --version 2>/dev/null | grep -qx "GitVersion: *v${GORELEASER_VERSION#v}"; then
	echo "building goreleaser $GORELEASER_VERSION into .tools/bin (once; a few minutes)"
	mkdir -p "$tools"
	GOBIN=$tools GOWORK=off GOFLAGS=-mod=mod "$GO" install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION"
fi

# GoReleaser reads the commit and its date only from a repository with a
# remote; without one it builds version "…-SNAPSHOT-none" stamped with the
# current time, so no two runs agree. A checkout without a remote gets the
# project's URL for this run alone, through git's environment
# configuration: the repository's own config is left as it is.
if [ -z "$(git remote)" ]; then
	export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url \
		GIT_CONFIG_VALUE_0=https://github.com/agent-skills/agent-skills.git
fi

# Release tags are v*; the modules' tags (format/v0.2.0, …) are not, and
# GoReleaser would otherwise take whichever tag it finds first.
tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*' HEAD 2>/dev/null || true)
export GORELEASER_CURRENT_TAG=$tag

case ${1:-} in
"")
	"$goreleaser" release --snapshot --clean
	;;
--release)
	exact=$(git describe --tags --exact-match --match 'v[0-9]*' HEAD 2>/dev/null) ||
		{ echo "$0: HEAD has no v* tag; tag the release first (docs/release.md)" >&2; exit 1; }
	export GORELEASER_CURRENT_TAG=$exact
	"$goreleaser" release --clean
	;;
*)
	echo "usage: $0 [--release]" >&2
	exit 2
	;;
esac
cp .release/releases.json dist/releases.json
# The artefacts name the commit they were built from, or they are not
# reproducible: refuse them rather than print their checksums.
head=$(git rev-parse HEAD)
if ! grep -q "\"commit\":\"$head\"" dist/metadata.json; then
	echo "$0: GoReleaser did not record commit $head in dist/metadata.json; the artefacts are not reproducible" >&2
	exit 1
fi
echo
echo "dist/checksums.txt:"
cat dist/checksums.txt

#!/usr/bin/env bash
# Writes the releases document (cli/internal/releases; docs/release.md) that
# is published as the release asset releases.json:
#
#   scripts/dist-releases.sh VERSION COMMIT_DATE OUT
#
# It lists every release tag vX.Y.Z[-pre] of this repository, newest first
# — date from the tag, notes from an annotated tag's first line, URL of its
# GitHub release — plus VERSION itself when no tag names it yet (a
# snapshot: dated COMMIT_DATE, no URL). Versions listed in
# scripts/dist-yanked.txt are marked yanked, so that update checks stop
# offering them. GoReleaser runs this as a before hook; everything comes
# from git, so one commit always gives the same bytes.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 VERSION COMMIT_DATE OUT" >&2; exit 2; }
version=${1#v} date=${2:0:10} out=$3
repo=https://github.com/agent-skills/agent-skills
here=$(cd "$(dirname "$0")" && pwd)

# The releases package reads strict semver: no leading zeros, no build metadata.
semver='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$'
[[ $version =~ $semver ]] || { echo "$0: version $version is not a semantic version" >&2; exit 1; }
[[ $date =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || { echo "$0: commit date $2 is not YYYY-MM-DD…" >&2; exit 1; }

# json_string prints $1 as a JSON string: backslash and quote escaped,
# control characters dropped (tag messages are one line each already).
json_string() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\037')"
}

yanked=" "
if [ -f "$here/dist-yanked.txt" ]; then
	yanked=" $(sed -e 's/#.*//' -e 's/^v//' "$here/dist-yanked.txt" | tr -s ' \t\n' ' ') "
fi

entries=()
seen=" "
add() { # version date url notes
	local e="    {\"version\": $(json_string "$1"), \"date\": $(json_string "$2")"
	[ -n "$3" ] && e+=", \"url\": $(json_string "$3")"
	[ -n "$4" ] && e+=", \"notes\": $(json_string "$4")"
	case $yanked in *" $1 "*) e+=', "yanked": true' ;; esac
	entries+=("$e}")
	seen+="$1 "
}

# versionsort.suffix=- puts 1.0.0-rc.1 below 1.0.0.
tags=$(git -c versionsort.suffix=- for-each-ref --sort=-version:refname \
	--format='%(refname:strip=2)%09%(creatordate:short)%09%(objecttype)%09%(contents:subject)' 'refs/tags/v*')
while IFS=$'\t' read -r tag tagdate kind subject; do
	[ -n "$tag" ] || continue
	v=${tag#v}
	[[ $v =~ $semver ]] || continue
	# A lightweight tag has no message of its own (its subject is the commit's).
	[ "$kind" = tag ] || subject=
	add "$v" "$tagdate" "$repo/releases/tag/$tag" "$subject"
done <<<"$tags"

if [[ $seen != *" $version "* ]]; then
	tagged=("${entries[@]}")
	entries=()
	add "$version" "$date" "" "snapshot of $(git rev-parse --short=7 HEAD)"
	entries+=("${tagged[@]}")
fi

mkdir -p "$(dirname "$out")"
{
	printf '{\n  "schemaVersion": 1,\n  "name": "agent-skills",\n  "releases": [\n'
	for i in "${!entries[@]}"; do
		sep=,
		[ "$i" -eq $((${#entries[@]} - 1)) ] && sep=
		printf '%s%s\n' "${entries[$i]}" "$sep"
	done
	printf '  ]\n}\n'
} >"$out.tmp"
mv "$out.tmp" "$out"

#!/usr/bin/env bash
# Packs the npm packages of the release that `make dist` built (dist/) into
# dist/npm/*.tgz, at that release's version (the esbuild pattern):
#
#   @agent-skills/cli                the launcher (npm/cli), whose bin is
#                                    agent-skills; its optionalDependencies
#                                    name the six below at exactly its version
#   @agent-skills/cli-<os>-<cpu>     one binary each, for os linux, darwin,
#                                    win32 and cpu x64, arm64 (npm's names),
#                                    with "os" and "cpu" set so that npm
#                                    installs only the one that fits
#
# No package has an install script. Publish the platform packages first
# (docs/release.md). NPM_SCOPE_NAME renames them all (default @agent-skills/cli).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${NPM_SCOPE_NAME:-@agent-skills/cli}
[ -f dist/metadata.json ] || { echo "$0: no dist/metadata.json; run make dist first" >&2; exit 1; }
version=$(node -p 'require("./dist/metadata.json").version')
out=dist/npm
stage=$out/stage
rm -rf "$out"
mkdir -p "$stage"

# goos goarch → npm's os and cpu.
platforms="linux:amd64:linux:x64 linux:arm64:linux:arm64 darwin:amd64:darwin:x64 darwin:arm64:darwin:arm64 windows:amd64:win32:x64 windows:arm64:win32:arm64"

optional=()
for p in $platforms; do
	IFS=: read -r goos goarch os cpu <<<"$p"
	exe=agent-skills
	[ "$goos" = windows ] && exe=agent-skills.exe
	# The binary is the one inside the release archive, byte for byte.
	archive=dist/agent-skills_${version}_${goos}_${goarch}.tar.gz
	[ "$goos" = windows ] && archive=dist/agent-skills_${version}_${goos}_${goarch}.zip
	[ -f "$archive" ] || { echo "$0: $archive is missing; run make dist" >&2; exit 1; }
	pkg=$name-$os-$cpu
	dir=$stage/$os-$cpu
	mkdir -p "$dir/bin"
	if [ "$goos" = windows ]; then
		unzip -q -o -d "$dir/bin" "$archive" "$exe"
	else
		tar -xzf "$archive" -C "$dir/bin" "$exe"
	fi
	chmod 0755 "$dir/bin/$exe"
	PKG=$pkg VERSION=$version OS=$os CPU=$cpu EXE=$exe node -e '
		const e = process.env;
		const m = {
			name: e.PKG, version: e.VERSION,
			description: "The agent-skills binary for " + e.OS + "-" + e.CPU + "; installed by @agent-skills/cli",
			homepage: "https://github.com/agent-skills/agent-skills",
			repository: { type: "git", url: "git+https://github.com/agent-skills/agent-skills.git", directory: "npm/cli" },
			os: [e.OS], cpu: [e.CPU],
			files: ["bin/" + e.EXE],
			preferUnplugged: true,
		};
		process.stdout.write(JSON.stringify(m, null, 2) + "\n");' >"$dir/package.json"
	printf '# %s\n\nThe `agent-skills` binary for %s-%s. Install `%s`, which runs it.\n' \
		"$pkg" "$os" "$cpu" "$name" >"$dir/README.md"
	optional+=("$pkg")
done

dir=$stage/main
mkdir -p "$dir"
cp -R npm/cli/bin npm/cli/README.md "$dir/"
NAME=$name VERSION=$version OPTIONAL="${optional[*]}" node -e '
	const e = process.env;
	const m = require(process.argv[1]);
	m.name = e.NAME;
	m.version = e.VERSION;
	m.optionalDependencies = {};
	for (const p of e.OPTIONAL.split(" ")) m.optionalDependencies[p] = e.VERSION;
	process.stdout.write(JSON.stringify(m, null, 2) + "\n");' "$PWD/npm/cli/package.json" >"$dir/package.json"

for d in "$stage"/*/; do
	(cd "$d" && npm pack --silent --pack-destination "$OLDPWD/$out" >/dev/null)
done
rm -rf "$stage"
echo "packed $version into $out:"
ls -l "$out"

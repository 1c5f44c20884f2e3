#!/usr/bin/env bash
# Installs the packed npm packages (make npm-pack) into an empty folder, the
# way a user's `npm install` would, and runs agent-skills through npx — not
# in CI (docs/release.md, "npm"):
#
#   scripts/npm-test.sh
#
# No network: npm runs --offline with an empty cache and a registry on a
# closed loopback port. npm still looks up every optional dependency (the
# other platforms' packages) in the registry, and treats the misses as
# "optional, not installed"; --offline makes those look-ups cache misses
# instead of requests. The launcher's answers are checked: --version, an
# offline search of the bundled registry, the binary's exit code, signals —
# a terminal's Ctrl-C to the whole process group, which reaches the binary
# once from the terminal and again through the launcher and npm, and a
# SIGTERM to the launcher alone — and the message when the platform package
# is missing (--omit=optional).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
command -v npm >/dev/null || { echo "$0: npm is not installed" >&2; exit 1; }
ls dist/npm/*.tgz >/dev/null 2>&1 || { echo "$0: no dist/npm/*.tgz; run make dist npm-pack first" >&2; exit 1; }

version=$(node -p 'require("./dist/metadata.json").version')
platform=$(node -p 'process.platform + "-" + process.arch')
main=$root/dist/npm/agent-skills-cli-$version.tgz
plat=$root/dist/npm/agent-skills-cli-$platform-$version.tgz
[ -f "$main" ] && [ -f "$plat" ] || { echo "$0: dist/npm has no $(basename "$main") and $(basename "$plat")" >&2; exit 1; }

tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
npmflags=(--offline --cache "$tmp/npm-cache" --registry=http://127.0.0.1:9/ --no-audit --no-fund --ignore-scripts --no-update-notifier)
export AGENT_SKILLS_HOME=$tmp/home AGENT_SKILLS_NO_UPDATE_NOTIFIER=1

fail() { echo "npm-test: FAIL: $*" >&2; exit 1; }
step() { printf '\n$ %s\n' "$*"; }

mkdir "$tmp/project"
cd "$tmp/project"
echo '{"name": "npm-test", "private": true}' >package.json
# The launcher and this machine's package, as a registry would serve them:
# npm picks the platform package by its os/cpu and skips the other five.
step npm install "${npmflags[@]}" "$(basename "$main")" "$(basename "$plat")"
npm install "${npmflags[@]}" "$main" "$plat"
installed=$(ls node_modules/@agent-skills)
echo "node_modules/@agent-skills: $(echo $installed)"
[ "$(echo $installed)" = "cli cli-$platform" ] || fail "installed $installed, want cli and cli-$platform only"

step npx agent-skills --version
out=$(npx --offline agent-skills --version)
echo "$out"
[[ $out == "agent-skills $version "* ]] || fail "--version printed $out, want agent-skills $version …"

step npx agent-skills --offline search java
out=$(npx --offline agent-skills --offline search java)
echo "$out"
grep -q '^java-basics .* bundled ' <<<"$out" || fail "the bundled registry has no java-basics in: $out"

step npx agent-skills no-such-command "   (the binary's exit code, 2, through the launcher)"
code=0
npx --offline agent-skills no-such-command 2>&1 || code=$?
echo "exit code $code"
[ "$code" = 2 ] || fail "exit code $code, want 2 (ASK_USAGE)"

# serve starts `agent-skills mcp serve` through the launcher, on a stdin
# that stays open, and sets launcher and binary to the two pids.
mkfifo "$tmp/stdin"
sleep 60 >"$tmp/stdin" &
holder=$!
serve() {
	node_modules/.bin/agent-skills mcp serve <"$tmp/stdin" >/dev/null &
	launcher=$!
	binary=
	for _ in $(seq 50); do
		binary=$(pgrep -P "$launcher" -x agent-skills || true)
		# Found: give the Go runtime a moment to install its signal
		# handlers, so a signal is not sent to a process still starting.
		[ -n "$binary" ] && { sleep 0.5; return; }
		sleep 0.1
	done
	fail "the launcher (pid $launcher) started no agent-skills"
}

step "agent-skills mcp serve; kill -TERM the launcher   (forwarded: the binary stops cleanly, exit 0)"
serve
kill -TERM "$launcher"
code=0
wait "$launcher" || code=$?
echo "launcher exit status $code"
kill -0 "$binary" 2>/dev/null && fail "the binary (pid $binary) outlived the launcher"
[ "$code" = 0 ] || fail "launcher exit status $code, want 0 (mcp serve ends cleanly on SIGTERM)"

step "agent-skills mcp serve; kill -KILL the binary   (the launcher dies of the same signal: 128+9)"
serve
kill -KILL "$binary"
code=0
wait "$launcher" 2>/dev/null || code=$?
echo "launcher exit status $code"
[ "$code" = 137 ] || fail "launcher exit status $code, want 137 (SIGKILL)"
kill "$holder" 2>/dev/null || true

# Two installs that wait, to be interrupted: one of a skill of 4,000 files
# from a local archive, which takes seconds to stage and whose clean-up —
# removing what was staged — takes long enough for the copies of a Ctrl-C
# to arrive in the middle of it; and one of an archive from a server on
# loopback that accepts connections and never answers (it writes its port
# to $tmp/stall and creates $tmp/stall.connected when a client connects).
mkdir -p "$tmp/big/many" "$tmp/proj/.git"
printf -- '---\nname: big\ndescription: A skill of many files.\n---\nBig.\n' >"$tmp/big/SKILL.md"
(cd "$tmp/big/many" && for i in $(seq 4000); do echo "$i" >"f$i.txt"; done)
tar -czf "$tmp/big.tar.gz" -C "$tmp/big" .
node -e '
	const fs = require("fs");
	const srv = require("net").createServer(() => fs.writeFileSync(process.argv[1] + ".connected", ""));
	srv.listen(0, "127.0.0.1", () => fs.writeFileSync(process.argv[1], String(srv.address().port)));' "$tmp/stall" &
pids+=($!)
for _ in $(seq 50); do [ -s "$tmp/stall" ] && break; sleep 0.1; done
port=$(cat "$tmp/stall")
staging=$tmp/proj/.claude/skills/.agent-skills/staging
staged() { find "$staging" -type f 2>/dev/null | wc -l; }

# started runs `npx agent-skills install SOURCE` in a process group of its
# own, as a shell starts a terminal's foreground job, waits until the shell
# condition WHEN holds, and sets job (npx, the group's leader), launcher and
# binary to their pids.
started() {
	rm -f "$tmp/stall.connected" "$tmp/stderr"
	set -m
	npx --offline agent-skills install "$1" --project --project-root "$tmp/proj" --agent claude-code 2>"$tmp/stderr" &
	job=$!
	set +m
	for _ in $(seq 400); do eval "$2" && break; sleep 0.02; done
	eval "$2" || fail "the install never got to $2; stderr: $(cat "$tmp/stderr")"
	binary=$(pgrep -g "$job" -x agent-skills) || fail "no agent-skills in the process group of npx (pid $job)"
	launcher=$(ps -o ppid= -p "$binary" | tr -d ' ')
	echo "process group $job: $(ps -o comm= -p "$(pgrep -d, -g "$job")" | paste -sd ' '), the binary's parent: $(ps -o comm= -p "$launcher")"
}

# interrupted waits for the job and checks that the binary unwound through
# its clean-up: the ASK_INTERRUPTED error naming the signal, exit 130,
# nothing left in the cache's work folders or the staging folder, nothing
# half-installed.
interrupted() {
	local code=0
	wait "$job" || code=$?
	sed 's/^/  stderr: /' "$tmp/stderr"
	echo "npx exit status $code"
	kill -0 "$binary" 2>/dev/null && fail "the binary (pid $binary) outlived npx"
	grep -q "code: ASK_INTERRUPTED" "$tmp/stderr" && grep -q "interrupted ($1 signal received)" "$tmp/stderr" ||
		fail "the binary did not report ASK_INTERRUPTED for $1: it was killed before its clean-up finished ($(staged) staged files left)"
	[ "$code" = 130 ] || fail "npx exit status $code, want 130 (ASK_INTERRUPTED)"
	left=$(ls -A "$AGENT_SKILLS_HOME/cache/sources" 2>/dev/null || true)
	[ -z "$left" ] || fail "the clean-up left $left in cache/sources"
	[ "$(staged)" = 0 ] || fail "the clean-up left $(staged) staged files in $staging"
	# Staging is not cancelled: a transaction that has begun finishes. So
	# big is either installed and locked, or neither.
	if [ -e "$tmp/proj/.claude/skills/big" ]; then
		grep -q '^  big:' "$tmp/proj/skills.lock" || fail "big is installed but not in skills.lock"
		echo "(big was installed: the install's transaction had begun and finished)"
	elif grep -qs '^  big:' "$tmp/proj/skills.lock"; then
		fail "skills.lock names big, which is not installed"
	fi
	rm -rf "$tmp/proj/.claude" "$tmp/proj/skills.lock"
}

step "npx agent-skills install big.tar.gz; kill -INT the process group while it stages   (a terminal's Ctrl-C: the binary gets it from the terminal and again from the launcher and npm, and is not killed by the copies: exit 130, nothing left staged)"
started "$tmp/big.tar.gz" '[ "$(staged)" -ge 200 ]'
kill -INT -- "-$job"
interrupted interrupt

step "npx agent-skills install <stalling server>; kill -TERM the launcher alone   (forwarded: the binary gets SIGTERM and unwinds, exit 130)"
started "http://127.0.0.1:$port/x.tar.gz" '[ -e "$tmp/stall.connected" ]'
kill -TERM "$launcher"
interrupted terminated

step "npm install --omit=optional: the launcher without its binary"
mkdir "$tmp/omit"
cd "$tmp/omit"
echo '{"name": "npm-test-omit", "private": true}' >package.json
npm install "${npmflags[@]}" --omit=optional "$main" >/dev/null
code=0
out=$(npx --offline agent-skills --version 2>&1) || code=$?
echo "$out"
echo "exit code $code"
[ "$code" = 1 ] && grep -q 'is not installed' <<<"$out" || fail "want exit 1 and 'is not installed', got $code: $out"

printf '\nnpm-test: ok (@agent-skills/cli %s on %s)\n' "$version" "$platform"

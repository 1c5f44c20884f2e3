#!/usr/bin/env bash
# The read-hook benchmark of issue 20: 20 parallel workers each run 500
# `agent-skills hook observe --host claude` processes, every one with its
# own tool_use_id, against one evidence store; the store must then hold
# exactly 10,000 read observations. Prints the wall time of the whole run
# and the per-hook (whole process) median and p95.
#
#   scripts/bench-observe.sh [WORKERS] [PER_WORKER]
#
# Builds the binary from cli/; a project with 20 installed skills in
# .claude/skills. Needs python3 (driver and row count). Not run by CI.
set -euo pipefail
workers=${1:-20} per=${2:-500}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-observe.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$root/cli" && CGO_ENABLED=0 go build -trimpath -o "$work/agent-skills" ./cmd/agent-skills)
mkdir -p "$work/home" "$work/proj/.git"
for i in $(seq -w 1 20); do
  d="$work/proj/.claude/skills/skill-$i"
  mkdir -p "$d"
  printf -- '---\nname: skill-%s\ndescription: Benchmark skill %s.\n---\n# Skill %s\nbody\n' "$i" "$i" "$i" >"$d/SKILL.md"
done
cd "$work/proj"
env -i PATH="$PATH" HOME="$work/home" AGENT_SKILLS_HOME="$work/home/.agent-skills" \
  AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 CLAUDE_CONFIG_DIR="$work/home/.claude" \
  python3 - "$work" "$workers" "$per" <<'PY'
import json, os, sqlite3, statistics, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
work, workers, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
exe, proj = os.path.join(work, "agent-skills"), os.path.join(work, "proj")

def payload(w, i):
    skill = "skill-%02d" % (i % 20 + 1)
    path = os.path.join(proj, ".claude", "skills", skill, "SKILL.md")
    return json.dumps({"session_id": "bench-%d" % w, "cwd": proj, "hook_event_name": "PostToolUse",
        "tool_name": "Read", "tool_input": {"file_path": path},
        "tool_response": {"type": "text", "file": {"filePath": path, "content": "x", "numLines": 6, "startLine": 1, "totalLines": 6}},
        "tool_use_id": "toolu_bench_%d_%d" % (w, i)}).encode()

def worker(w):
    times, errors = [], []
    for i in range(per):
        t = time.perf_counter()
        p = subprocess.run([exe, "hook", "observe", "--host", "claude"], input=payload(w, i), capture_output=True)
        times.append(time.perf_counter() - t)
        if p.returncode != 0 or p.stderr or p.stdout:
            errors.append(p.stderr.decode(errors="replace").strip())
    return times, errors

start = time.perf_counter()
with ThreadPoolExecutor(workers) as ex:
    results = list(ex.map(worker, range(workers)))
wall = time.perf_counter() - start
times = sorted(t for r in results for t in r[0])
errors = [e for r in results for e in r[1]]
db = os.path.join(work, "home", ".agents", "skills-usage.db")
rows = sqlite3.connect("file:%s?mode=ro" % db, uri=True).execute("SELECT count(*) FROM read_observation").fetchone()[0]
want = workers * per
p95 = times[max(0, int(len(times) * 0.95) - 1)]
print("hook observe: %d workers x %d processes: %d rows (want %d), %d hooks printed on stderr" % (workers, per, rows, want, len(errors)))
print("wall %.2f s; per hook median %.1f ms, p95 %.1f ms, max %.1f ms" % (wall, statistics.median(times) * 1e3, p95 * 1e3, times[-1] * 1e3))
for e in sorted(set(errors))[:5]:
    print("  stderr: " + e)
sys.exit(0 if rows == want and not errors else 1)
PY

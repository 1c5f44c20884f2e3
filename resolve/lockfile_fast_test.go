package resolve

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// fastAgrees fails t when decodeLockFast reads data but the YAML path
// reads something else or refuses it.
func fastAgrees(t *testing.T, data []byte) (fast bool) {
	t.Helper()
	l, ok := decodeLockFast(data)
	if !ok {
		return false
	}
	want, err := decodeLockYAML(data, "skills.lock")
	if err != nil {
		t.Fatalf("decodeLockFast read a lock the YAML path refuses (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(l, want) {
		t.Fatalf("decodeLockFast = %#v\nYAML path = %#v\nfor\n%s", l, want, data)
	}
	return true
}

// TestDecodeLockFastReadsWhatEncodeWrites: every lock Encode writes of
// ordinary values takes the fast path, and reads as the YAML path reads it;
// so do the repository's lock files.
func TestDecodeLockFastReadsWhatEncodeWrites(t *testing.T) {
	for _, l := range []*Lock{designLockValue(), {}, bigLock(50)} {
		if data := l.Encode(); !fastAgrees(t, data) {
			t.Errorf("decodeLockFast did not read Encode's lock:\n%s", data)
		}
	}
	if !fastAgrees(t, []byte(designLock)) {
		t.Errorf("decodeLockFast did not read the design's lock")
	}
	files, _ := filepath.Glob("testdata/lock/*.lock")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fastAgrees(t, data)
	}
}

// TestDecodeLockFastLeavesTheRestToYAML: what the fast path does not read —
// another layout, comments, double quotes, a problem — is read (or
// refused, with the problem's position) exactly as before.
func TestDecodeLockFastLeavesTheRestToYAML(t *testing.T) {
	base := string(designLockValue().Encode())
	for _, tt := range []struct{ name, data string }{
		{"comment", strings.Replace(base, "skills:\n", "skills: # all\n", 1)},
		{"crlf", strings.ReplaceAll(base, "\n", "\r\n")},
		{"no final newline", strings.TrimSuffix(base, "\n")},
		{"flow entry", "lockfileVersion: 2\nskills:\n  aa: {version: 1.0.0, registry: r}\n"},
		{"key order", strings.Replace(base, "    version: 1.2.3\n    registry: official\n", "    registry: official\n    version: 1.2.3\n", 1)},
		{"double quotes", strings.Replace(base, "registry: official", `registry: "official"`, 1)},
		{"plain number", strings.Replace(base, "registry: official", "registry: 12", 1)},
		{"plain bool", strings.Replace(base, "registry: official", "registry: yes", 1)},
		{"bad version", strings.Replace(base, "version: 1.2.3", "version: 1.2", 1)},
		{"newer format", strings.Replace(base, "lockfileVersion: 1", "lockfileVersion: 9", 1)},
		{"leading zero", strings.Replace(base, "lockfileVersion: 1", "lockfileVersion: 01", 1)},
		{"duplicate skill", base + "  java-basics:\n    version: 1.2.3\n    registry: official\n    agents: []\n    dependencies: {}\n"},
		{"missing dependency", strings.Replace(base, "java-basics: 1.2.3", "java-nothing: 1.2.3", 1)},
		{"dependency version", strings.Replace(base, "      java-basics: 1.2.3", "      java-basics: 1.2.4", 1)},
		{"no registry", strings.Replace(base, "    registry: official\n", "", 1)},
		{"leaves the project", strings.Replace(base, "    registry: official\n", "    registry: official\n    source: ../x\n", 1)},
		{"unknown key", strings.Replace(base, "    agents:", "    color: red\n    agents:", 1)},
		{"password", "lockfileVersion: 2\nregistries:\n  team:\n    kind: http\n    url: 'https://u:p@h/x'\nskills: {}\n"},
		{"registries in v1", "lockfileVersion: 1\nregistries:\n  team:\n    kind: local\n    url: /x\nskills: {}\n"},
		{"ref on http", "lockfileVersion: 2\nregistries:\n  team:\n    kind: http\n    url: 'https://h/x'\n    ref: main\nskills: {}\n"},
		{"nonchar", strings.Replace(base, "registry: official", "registry: 'of\uffffficial'", 1)},
		{"bad name", strings.Replace(base, "  java-basics:\n", "  Java_Basics:\n", 1)},
		{"empty quoted", strings.Replace(base, "registry: official", "registry: ''", 1)},
	} {
		if _, ok := decodeLockFast([]byte(tt.data)); ok {
			t.Errorf("decodeLockFast read the %s lock; want it left to the YAML path:\n%s", tt.name, tt.data)
		}
		got, gerr := DecodeLock([]byte(tt.data), "skills.lock")
		want, werr := decodeLockYAML([]byte(tt.data), "skills.lock")
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gerr, werr) {
			t.Errorf("DecodeLock(%s) = %v, %v; want the YAML path's %v, %v", tt.name, got, gerr, want, werr)
		}
	}
}

// TestDecodeLockFastRandom: locks of random values (quotes, spaces,
// Unicode, controls, numbers, booleans) read the same on both paths, and
// most take the fast one.
func TestDecodeLockFastRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "z", "0", "1", ".", "-", "_", "/", "@", "+", "=", "~", ":", "#", " ", "'", `"`, ",", "[", "]", "{", "}",
		"é", "true", "null", "1.0.0", "./x", "../y", "https://h/x", "git@h:o/r.git"}
	escaped := []string{"\t", "\u0085", "\u2028", "\ufeff", "\x7f"} // Encode writes these in double quotes
	str := func() string {
		if rng.IntN(3) == 0 {
			return ""
		}
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			if rng.IntN(200) == 0 {
				b.WriteString(escaped[rng.IntN(len(escaped))])
			} else {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		return b.String()
	}
	fast := 0
	const n = 3000
	for i := range n {
		l := &Lock{LockfileVersion: 1 + rng.IntN(2), GeneratedWith: str(), Skills: map[string]LockedSkill{}}
		if l.LockfileVersion == 2 && rng.IntN(2) == 0 {
			l.Registries = map[string]LockedRegistry{"team": {Kind: []string{"local", "git", "http", "bundled"}[rng.IntN(4)], URL: "x" + str(), Ref: str()}}
		}
		for j := range 1 + rng.IntN(3) {
			s := LockedSkill{Version: []string{"1.0.0", "2.1.3-rc.1", ""}[rng.IntN(3)], Registry: "r" + str(), Source: str(), Ref: str(), Commit: str(),
				Subpath: str(), Resolved: str(), Integrity: str(), Agents: []string{"a" + str(), str()}, Disabled: rng.IntN(2) == 0}
			if j > 0 && rng.IntN(2) == 0 {
				dep := fmt.Sprintf("skill-%d", j-1)
				s.Dependencies = map[string]string{dep: []string{l.Skills[dep].Version, "", str()}[rng.IntN(3)]}
			}
			l.Skills[fmt.Sprintf("skill-%d", j)] = s
		}
		if fastAgrees(t, l.Encode()) {
			fast++
		}
		_ = i
	}
	if fast < n/10 {
		t.Errorf("decodeLockFast read %d of %d random locks, want a good share", fast, n)
	}
	t.Logf("fast path read %d of %d random locks", fast, n)
}

// bigLock is a lock of n skills as an install writes them.
func bigLock(n int) *Lock {
	l := &Lock{LockfileVersion: LockfileVersion, GeneratedWith: "agent-skills@1.0.0",
		Registries: map[string]LockedRegistry{"bench": {Kind: "local", URL: "/tmp/reg"}}, Skills: map[string]LockedSkill{}}
	for i := range n {
		s := LockedSkill{Version: "1.0.0", Registry: "bench", Resolved: fmt.Sprintf("/tmp/reg:skills/bench-skill-%05d", i),
			Integrity: "sha256-pLlo/WJR/azw4VVgoaJhOgS5bBYrA0E9y50PU1cYac8=", Agents: []string{"claude-code", "codex"}}
		if i > 0 {
			s.Dependencies = map[string]string{fmt.Sprintf("bench-skill-%05d", i-1): "1.0.0"}
		}
		l.Skills[fmt.Sprintf("bench-skill-%05d", i)] = s
	}
	return l
}

// TestDecodeLock10kMemory: a 10,000-skill lock, as an install writes it,
// is read without a YAML node tree — it was 48 MB of allocations, eight
// times the lock it decodes to, and every install of that project reads
// the lock twice and writes (and reads back) it once.
func TestDecodeLock10kMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("large lock; its memory is only meaningful without -race")
	}
	data := bigLock(10000).Encode()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l, err := DecodeLock(data, "skills.lock")
	runtime.ReadMemStats(&after)
	if err != nil || len(l.Skills) != 10000 {
		t.Fatalf("DecodeLock = %d skills, %v", len(l.Skills), err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes of lock: %.1f MB allocated", len(data), float64(alloc)/1e6)
	if alloc > 16<<20 {
		t.Errorf("DecodeLock of 10,000 skills allocated %d bytes, want under 16 MiB", alloc)
	}
}

func FuzzDecodeLockFast(f *testing.F) {
	f.Add([]byte(designLock))
	f.Add(designLockValue().Encode())
	f.Add(bigLock(3).Encode())
	f.Add([]byte("lockfileVersion: 2\nregistries:\n  team:\n    kind: git\n    url: 'git@h:o/r.git'\n    ref: main\nskills:\n  aa:\n    version: 1.0.0\n    source: ./x\n    agents: ['a, b', c]\n    disabled: true\n    dependencies: {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fastAgrees(t, data)
	})
}

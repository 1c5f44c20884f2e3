package skillset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/resolve"
)

// fileHolds tells a file that holds the bytes from every other: shorter,
// longer, different in any block, missing, a folder.
func TestFileHolds(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 5000) // 80,000 bytes: three blocks
	path := filepath.Join(dir, "skills.lock")
	write := func(b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	changed := bytes.Clone(data)
	changed[len(changed)-1] = 'x'
	for _, c := range []struct {
		name string
		file []byte
		want bool
	}{
		{"the same", data, true},
		{"changed in the last block", changed, false},
		{"shorter", data[:len(data)-1], false},
		{"longer", append(bytes.Clone(data), '\n'), false},
		{"empty", nil, false},
	} {
		write(c.file)
		if got := fileHolds(path, data); got != c.want {
			t.Errorf("%s: fileHolds = %v, want %v", c.name, got, c.want)
		}
	}
	write(nil)
	if !fileHolds(path, nil) {
		t.Errorf("an empty file does not hold nothing")
	}
	if fileHolds(filepath.Join(dir, "none"), nil) || fileHolds(dir, nil) {
		t.Errorf("a missing file or a folder holds something")
	}
}

// portable shares the skills of a lock none of whose skills is from a
// folder, and the file it encodes is the one a copy encodes.
func TestPortableShares(t *testing.T) {
	root := t.TempDir()
	l := &resolve.Lock{LockfileVersion: 1, Skills: map[string]resolve.LockedSkill{
		"a": entry("1.0.0", sum1, both, nil), "b": entry("1.1.0", sum2, both, nil),
	}, Registries: map[string]resolve.LockedRegistry{"team": {Kind: "local", URL: filepath.Join(root, "reg")}}}
	p := portable(l, root)
	p.Skills["c"] = entry("1.0.0", sum1, nil, nil)
	if _, ok := l.Skills["c"]; !ok {
		t.Errorf("portable copied skills that need no change")
	}
	delete(l.Skills, "c")
	if got := p.Registries["team"].URL; got != "./reg" {
		t.Errorf("portable registry URL = %q, want ./reg", got)
	}
	if l.Registries["team"].URL != filepath.Join(root, "reg") {
		t.Errorf("portable changed the lock's registries")
	}
}

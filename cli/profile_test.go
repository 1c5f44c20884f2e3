package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestStartProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, tr := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "trace.out")
	env := map[string]string{"AGENT_SKILLS_CPUPROFILE": cpu, "AGENT_SKILLS_TRACE": tr}
	var stderr bytes.Buffer
	stop := startProfiles(func(k string) string { return env[k] }, &stderr)
	for i := 0; i < 1e6; i++ {
		_ = strings.Repeat("x", i%7)
	}
	stop()
	for _, p := range []string{cpu, tr} {
		if info, err := os.Stat(p); err != nil || info.Size() == 0 {
			t.Errorf("startProfiles wrote %s: %v (size %v), want a non-empty file", filepath.Base(p), err, info)
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("startProfiles printed %q, want nothing", stderr.String())
	}
}

func TestStartProfilesBadPath(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "missing", "cpu.out")
	var stderr bytes.Buffer
	startProfiles(func(k string) string {
		if k == "AGENT_SKILLS_CPUPROFILE" {
			return bad
		}
		return ""
	}, &stderr)()
	if !strings.Contains(stderr.String(), "AGENT_SKILLS_CPUPROFILE") {
		t.Errorf("startProfiles(unwritable) printed %q, want a warning naming AGENT_SKILLS_CPUPROFILE", stderr.String())
	}
}

func TestStartProfilesOff(t *testing.T) {
	var stderr bytes.Buffer
	startProfiles(func(string) string { return "" }, &stderr)()
	if stderr.Len() != 0 {
		t.Errorf("startProfiles() with nothing set printed %q", stderr.String())
	}
}

func TestStartProfilesMem(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mem.out")
	var stderr bytes.Buffer
	stop := startProfiles(func(k string) string {
		if k == "AGENT_SKILLS_MEMPROFILE" {
			return p
		}
		return ""
	}, &stderr)
	keep := make([][]byte, 0, 64)
	for i := 0; i < 64; i++ {
		keep = append(keep, make([]byte, 1<<20))
		runtime.GC()
	}
	stop()
	runtime.KeepAlive(keep)
	info, err := os.Stat(p)
	if err != nil || info.Size() == 0 {
		t.Fatalf("startProfiles wrote mem.out: %v (%v), want a non-empty heap profile", err, info)
	}
	if b, _ := os.ReadFile(p); len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("mem.out starts %q, want a gzipped pprof profile", b[:min(len(b), 8)])
	}
	if stderr.Len() != 0 {
		t.Errorf("startProfiles printed %q, want nothing", stderr.String())
	}
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/registry"
)

// TestIOFailuresAreASKIO: a full disk or another file-system failure is
// ASK_IO, exit 1, with a next action, wherever it surfaces uncoded — never
// ASK_INTERNAL ("a bug in agent-skills"); a coded error keeps its code
// (B17).
func TestIOFailuresAreASKIO(t *testing.T) {
	enospc := &fs.PathError{Op: "write", Path: "/full/config.json.tmp", Err: syscall.ENOSPC}
	tests := []struct {
		err  error
		code string
	}{
		{enospc, "ASK_IO"},
		{fmt.Errorf("saving: %w", enospc), "ASK_IO"},
		{&os.LinkError{Op: "rename", Old: "a", New: "b", Err: syscall.EROFS}, "ASK_IO"},
		{os.NewSyscallError("fsync", syscall.EIO), "ASK_IO"},
		{fmt.Errorf("wrapped: %w", syscall.ENOSPC), "ASK_IO"},
		{fmt.Errorf("x: %w", fs.ErrPermission), "ASK_IO"},
		{&registry.Error{Code: "ASK_REGISTRY_UNAVAILABLE", Message: "m", Err: enospc}, "ASK_REGISTRY_UNAVAILABLE"},
		{context.Canceled, "ASK_INTERNAL"},
		{errors.New("some bug"), "ASK_INTERNAL"},
	}
	for _, tt := range tests {
		if got := askerr.CodeOf(tt.err); got != tt.code {
			t.Errorf("askerr.CodeOf(%v) = %s, want %s", tt.err, got, tt.code)
		}
		if tt.code == "ASK_IO" && exitCodeOf(tt.err) != exitFailure {
			t.Errorf("exitCodeOf(%v) = %d, want %d", tt.err, exitCodeOf(tt.err), exitFailure)
		}
	}
}

// TestRegistryAddOnAFailingDisk: the configuration write failing is
// ASK_IO naming the file (the repro fills a 64 KiB tmpfs; here the write
// is injected).
func TestRegistryAddOnAFailingDisk(t *testing.T) {
	e := &env{ws: &workspace.Machine{Getenv: func(k string) string {
		if k == "AGENT_SKILLS_HOME" {
			return "/ask-home"
		}
		return ""
	}}}
	err := saveError(e, &fs.PathError{Op: "write", Path: "/ask-home/config.json.tmp", Err: syscall.ENOSPC})
	if askerr.CodeOf(err) != "ASK_IO" || !strings.Contains(err.Error(), "cannot write /ask-home/config.json") {
		t.Errorf("saveError(ENOSPC) = %v (%s), want ASK_IO naming config.json", err, askerr.CodeOf(err))
	}
}

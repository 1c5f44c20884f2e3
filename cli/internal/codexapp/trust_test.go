package codexapp

import (
	"errors"
	"reflect"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/tomledit"
)

const hashA = "sha256:443ef6ceb26110adacc43de79495e2758fe5280240992f366f62873394a9d867"
const hashB = "sha256:d9e8e828ff0f91ed73bfddf33319de8ea53bed8942c32944b653be212119868f"

func TestRecordTrust(t *testing.T) {
	config := "# mine\nmodel = \"gpt-5\" # keep\n\n[hooks.state.\"/other:session_start:0:0\"]\ntrusted_hash = \"sha256:other\"\n"
	h := Hook{Key: "/h/.codex/hooks.json:session_start:0:0", CurrentHash: hashA}
	out, err := RecordTrust([]byte(config), h)
	if err != nil {
		t.Fatalf("RecordTrust: %v", err)
	}
	want := config + "\n[hooks.state.\"/h/.codex/hooks.json:session_start:0:0\"]\ntrusted_hash = \"" + hashA + "\"\n"
	if string(out) != want {
		t.Errorf("RecordTrust =\n%s\nwant\n%s", out, want)
	}
	// Trusting the changed hook again replaces its hash in place.
	h.CurrentHash = hashB
	again, err := RecordTrust(out, h)
	if err != nil {
		t.Fatalf("RecordTrust again: %v", err)
	}
	if want := config + "\n[hooks.state.\"/h/.codex/hooks.json:session_start:0:0\"]\ntrusted_hash = \"" + hashB + "\"\n"; string(again) != want {
		t.Errorf("RecordTrust again =\n%s\nwant\n%s", again, want)
	}
	// Into a missing config.toml.
	fresh, err := RecordTrust(nil, h)
	if err != nil || string(fresh) != "[hooks.state.\"/h/.codex/hooks.json:session_start:0:0\"]\ntrusted_hash = \""+hashB+"\"\n" {
		t.Errorf("RecordTrust(nil) = %q, %v", fresh, err)
	}
}

func TestRecordTrustRefuses(t *testing.T) {
	h := Hook{Key: "/k:session_start:0:0", CurrentHash: hashA}
	var pe *tomledit.ParseError
	if _, err := RecordTrust([]byte("model = \n"), h); !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("RecordTrust(broken config) = %v, want a *tomledit.ParseError on line 1", err)
	}
	var ee *tomledit.EditError
	if _, err := RecordTrust([]byte("[hooks]\nstate = { \"/k:session_start:0:0\" = { trusted_hash = \"x\" } }\n"), h); !errors.As(err, &ee) {
		t.Errorf("RecordTrust(inline hooks.state) = %v, want a *tomledit.EditError", err)
	}
	var e *Error
	if _, err := RecordTrust(nil, Hook{Key: "/k", CurrentHash: "sha256:x\n[evil]"}); !errors.As(err, &e) || e.Kind != KindProtocol {
		t.Errorf("RecordTrust(bad hash) = %v, want a protocol *Error", err)
	}
}

func TestFind(t *testing.T) {
	a := Hook{Key: "a", Command: "agent-skills hook session-index --host codex"}
	b := Hook{Key: "b", Command: "other"}
	dirs := []Dir{{Cwd: "/1", Hooks: []Hook{a, b}}, {Cwd: "/2", Hooks: []Hook{a}}}
	if got := Find(dirs, a.Command); !reflect.DeepEqual(got, []Hook{a}) {
		t.Errorf("Find = %+v, want [a] once", got)
	}
	if got := Find(dirs, "nothing"); got != nil {
		t.Errorf("Find(nothing) = %+v, want none", got)
	}
}

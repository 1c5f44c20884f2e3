package hooks

import (
	"strings"
	"testing"
)

func TestReadConfigVerifies(t *testing.T) {
	for _, h := range Hosts() {
		reg := ReadConfig(h)
		if d := VerifyRead(h, reg.Snippet); d != nil {
			t.Errorf("%s: VerifyRead(ReadConfig) = %v", h, d)
		}
		if d := Verify(h, reg.Snippet); d == nil {
			t.Errorf("%s: the read hook passes as the session hook", h)
		}
		if d := VerifyRead(h, Config(h).Snippet); d == nil {
			t.Errorf("%s: the session hook passes as the read hook", h)
		}
	}
	wrong := strings.Replace(string(ReadConfig(Claude).Snippet), `"Read"`, `"Write"`, 1)
	if d := VerifyRead(Claude, []byte(wrong)); len(d) != 1 || !strings.Contains(d[0], `matcher is not "Read"`) {
		t.Errorf("a group with another matcher: %v", d)
	}
	edited := strings.Replace(string(ReadConfig(Gemini).Snippet), "10000", "5", 1)
	if d := VerifyRead(Gemini, []byte(edited)); len(d) != 1 || !strings.Contains(d[0], "timeout = 5, want 10000") {
		t.Errorf("an edited timeout: %v", d)
	}
}

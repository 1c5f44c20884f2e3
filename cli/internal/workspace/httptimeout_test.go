package workspace

import (
	"strings"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/registry"
)

func TestHTTPTimeoutsFrom(t *testing.T) {
	def := registry.DefaultHTTPTimeouts()
	tests := []struct {
		value string
		want  time.Duration // 0: the defaults stay
		warn  bool
	}{
		{"", 0, false},
		{"60", time.Minute, false},
		{"0.5", 500 * time.Millisecond, false},
		{"1m30s", 90 * time.Second, false},
		{" 2s ", 2 * time.Second, false},
		{"soon", 0, true},
		{"0", 0, true},
		{"-5", 0, true},
	}
	for _, tt := range tests {
		got, warning := HTTPTimeoutsFrom(func(k string) string {
			if k == httpTimeoutEnv {
				return tt.value
			}
			return ""
		})
		want := def
		if tt.want != 0 {
			want.Connect, want.TLSHandshake, want.ResponseHeader, want.Idle = tt.want, tt.want, tt.want, tt.want
		}
		if got != want || (warning != "") != tt.warn {
			t.Errorf("HTTPTimeoutsFrom(%q) = %+v, %q; want %+v, warning %v", tt.value, got, warning, want, tt.warn)
		}
		if tt.warn && !strings.Contains(warning, httpTimeoutEnv) {
			t.Errorf("HTTPTimeoutsFrom(%q) warning %q does not name the variable", tt.value, warning)
		}
		if got.Total != def.Total {
			t.Errorf("HTTPTimeoutsFrom(%q).Total = %v, want the default %v", tt.value, got.Total, def.Total)
		}
	}
}

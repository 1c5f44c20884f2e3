package workspace

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/registry"
)

// httpTimeoutEnv names the variable that sets how long a download may go
// without progress, like cargo's CARGO_HTTP_TIMEOUT: seconds ("60") or a
// Go duration ("1m30s", "500ms").
const httpTimeoutEnv = "AGENT_SKILLS_HTTP_TIMEOUT"

// HTTPTimeoutsFrom returns the limits of every registry and archive
// download: registry's defaults, with AGENT_SKILLS_HTTP_TIMEOUT, when set,
// replacing the connect, TLS handshake, response header and idle limits
// (the overall deadline stays). A value that is not a positive duration
// is ignored; the second result is then the warning to print.
func HTTPTimeoutsFrom(getenv func(string) string) (registry.HTTPTimeouts, string) {
	t := registry.DefaultHTTPTimeouts()
	v := strings.TrimSpace(getenv(httpTimeoutEnv))
	if v == "" {
		return t, ""
	}
	d, err := time.ParseDuration(v)
	if n, nerr := strconv.ParseFloat(v, 64); nerr == nil {
		d, err = time.Duration(n*float64(time.Second)), nil
	}
	if err != nil || d <= 0 {
		return t, fmt.Sprintf("%s=%q is not a positive number of seconds or a duration such as 90s; using the defaults", httpTimeoutEnv, v)
	}
	t.Connect, t.TLSHandshake, t.ResponseHeader, t.Idle = d, d, d, d
	return t, ""
}

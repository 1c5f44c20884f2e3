package validate

import (
	"fmt"
	"slices"
	"strings"
)

// CheckOverrides checks a manifest's agentOverrides against allow, the
// allowlist each agent adapter declares: agent id → the override keys it
// accepts. validate knows no agents itself; the caller (the CLI, from its
// adapters) passes allow in. An agent id missing from allow, or a key
// outside that agent's list, is an error with code ASK_OVERRIDE_KEY_UNKNOWN
// and field path "agentOverrides.<agent>" or "agentOverrides.<agent>.<key>".
// Problems are sorted by agent id, then key.
func CheckOverrides(overrides map[string]map[string]any, allow map[string][]string) []FieldProblem {
	var out []FieldProblem
	known := make([]string, 0, len(allow))
	for id := range allow {
		known = append(known, id)
	}
	slices.Sort(known)
	ids := make([]string, 0, len(overrides))
	for id := range overrides {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		keys, ok := allow[id]
		if !ok {
			fix := "remove the block; no installed agent adapter accepts overrides"
			if len(known) > 0 {
				fix = "use one of the agent ids " + strings.Join(known, ", ") + ", or remove the block"
			}
			out = append(out, FieldProblem{Field: "agentOverrides." + id, Problem: &Problem{
				Code:    CodeOverrideKeyUnknown,
				Message: fmt.Sprintf("agentOverrides names the unknown agent %q", id),
				Fix:     fix,
			}})
			continue
		}
		names := make([]string, 0, len(overrides[id]))
		for k := range overrides[id] {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if slices.Contains(keys, k) {
				continue
			}
			fix := fmt.Sprintf("remove it; %s accepts no override keys", id)
			if len(keys) > 0 {
				sorted := slices.Sorted(slices.Values(keys))
				fix = fmt.Sprintf("remove it, or use one of the keys %s accepts: %s", id, strings.Join(sorted, ", "))
			}
			out = append(out, FieldProblem{Field: "agentOverrides." + id + "." + k, Problem: &Problem{
				Code:    CodeOverrideKeyUnknown,
				Message: fmt.Sprintf("agentOverrides.%s has the key %q, which the %s adapter does not allow", id, k, id),
				Fix:     fix,
			}})
		}
	}
	return out
}

package scan

import "fmt"

// Severity ranks a finding. The zero value is Info; higher is worse.
type Severity int8

// The severities, lowest first.
const (
	Info Severity = iota
	Low
	Medium
	High
	Critical
)

var severityNames = [...]string{"info", "low", "medium", "high", "critical"}

// String returns "info", "low", "medium", "high" or "critical".
func (s Severity) String() string {
	if s < Info || s > Critical {
		return fmt.Sprintf("severity(%d)", int8(s))
	}
	return severityNames[s]
}

// ParseSeverity reads a severity name as String writes it.
func ParseSeverity(name string) (Severity, error) {
	for i, n := range severityNames {
		if n == name {
			return Severity(i), nil
		}
	}
	return Info, fmt.Errorf("unknown severity %q (want info, low, medium, high or critical)", name)
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) {
	if s < Info || s > Critical {
		return nil, fmt.Errorf("invalid severity %d", int8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a severity's name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

package scan

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// CapabilityRunsScripts is the skill.yaml capability that declares that a
// package runs code: its own scripts or programs, or a shell.
const CapabilityRunsScripts = "runs-scripts"

// programMagic are the first bytes of executable formats: ELF, Mach-O (32,
// 64, both byte orders, fat), PE and WebAssembly.
var programMagic = [][]byte{
	[]byte("\x7fELF"), {0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe},
	{0xcf, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}, []byte("MZ"), []byte("\x00asm"),
}

// runsCode reports why a file counts as code the package ships, or "".
func runsCode(f *file) string {
	switch {
	case f.kind == kindBinary:
		for _, m := range programMagic {
			if bytes.HasPrefix(f.data, m) {
				return "a program"
			}
		}
		if f.exec {
			return "an executable file"
		}
	case f.kind == kindScript:
		return "a script"
	case f.exec:
		return "an executable file"
	}
	return ""
}

// reShellTool matches an allowed-tools entry that grants a shell.
var reShellTool = regexp.MustCompile(`(?i)^(?:bash|sh|zsh|shell|powershell|pwsh|exec|execute|terminal|run_shell_command|run_terminal_cmd|local_shell|command|cmd)(?:\(.*\))?$`)

// checkCapabilities reports scripts, programs and shell access the package
// does not declare with capabilities: [runs-scripts].
func checkCapabilities(s *scanner) {
	// a skill.yaml that did not decode declares nothing, but it is not a
	// bare skill: its author can declare
	manifest := format.ManifestFile
	if m := s.pkg.Manifest; m != nil {
		if slices.Contains(m.Capabilities, CapabilityRunsScripts) {
			return
		}
		manifest = m.File
	}
	bare := s.pkg.Bare
	sev := ruleSeverity(RuleCapabilityScripts)
	how := manifest + " does not declare capabilities: [" + CapabilityRunsScripts + "]"
	if bare {
		sev = Info
		how = "a bare skill (no skill.yaml) cannot declare capabilities: [" + CapabilityRunsScripts + "]"
	}
	var code []*file
	var why string
	for _, f := range s.files {
		// A workflow's WORKFLOW.js is its entrypoint: the kind says it is
		// code, and it is read statically, never run by agent-skills.
		if s.pkg.Kind == format.KindWorkflow && f.name == s.pkg.EntrypointFile {
			continue
		}
		if w := runsCode(f); w != "" {
			if code == nil {
				why = w
			}
			code = append(code, f)
		}
	}
	if len(code) > 0 {
		msg := fmt.Sprintf("%s is %s", code[0].name, why)
		switch n := len(code) - 1; {
		case n == 1:
			msg = fmt.Sprintf("%s and 1 other file are scripts or programs", code[0].name)
		case n > 1:
			msg = fmt.Sprintf("%s and %d other files are scripts or programs", code[0].name, n)
		}
		s.addFileAs(RuleCapabilityScripts, sev, code[0].name, msg+", and "+how)
	}
	e := s.pkg.Entrypoint
	if e == nil {
		return
	}
	var tools []string
	switch v := e.Fields["allowed-tools"].(type) {
	case string:
		tools = splitTools(v)
	case []any:
		for _, t := range v {
			if t, ok := t.(string); ok {
				tools = append(tools, splitTools(t)...)
			}
		}
	}
	for _, t := range tools {
		if !reShellTool.MatchString(t) {
			continue
		}
		shellSev := ruleSeverity(RuleCapabilityShell)
		msg := fmt.Sprintf("allowed-tools grants the shell tool %q, and %s", Visible(t), how)
		if scopedShell(t) {
			// Bash(git diff:*): a shell limited to the commands named, the
			// least-privilege form the agents recommend; reported for the
			// record (audit, --json), not as a problem
			shellSev = Info
			msg = fmt.Sprintf("allowed-tools grants the shell for the commands %q, and %s", Visible(t), how)
		}
		if bare {
			shellSev = Info
		}
		if f := s.fileNamed(e.File); f != nil {
			if off := bytes.Index(f.data, []byte(t)); off >= 0 {
				s.addAs(RuleCapabilityShell, shellSev, f, off, off+len(t), msg)
				return
			}
		}
		s.addFileAs(RuleCapabilityShell, shellSev, e.File, msg)
		return
	}
}

// scopedShell reports a shell tool limited to named commands:
// "Bash(git diff:*)", not "Bash" or "Bash(*)".
func scopedShell(t string) bool {
	i := strings.IndexByte(t, '(')
	if i < 0 {
		return false
	}
	arg := strings.TrimSpace(strings.TrimSuffix(t[i+1:], ")"))
	return arg != "" && arg != "*" && arg != ":*"
}

// splitTools splits an allowed-tools string on spaces and commas outside
// parentheses: "Bash(git add:*) Read, Write" is three tools.
func splitTools(v string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(i int) {
		if t := strings.TrimSpace(v[start:i]); t != "" {
			out = append(out, t)
		}
		start = i + 1
	}
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '(':
			depth++
		case ')':
			depth = max(0, depth-1)
		case ' ', ',', '\t', '\n':
			if depth == 0 {
				flush(i)
			}
		}
	}
	flush(len(v))
	return out
}

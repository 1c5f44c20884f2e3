package resolve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestScenarios runs testdata/scenarios.txt, a one-line-per-case script in
// the manner of cmd/go's mvs_test.go:
//
//	name: diamond                        start a scenario
//	registries: company official         registry precedence (default: official)
//	[reg/]name 1.0.0 [deprecated]: dep ^1, ?optional ^2, +suggestion
//	pin name 1.0.0 [registry]            a skills.lock pin
//	resolve [--suggests] [--no-deps] [--limit=N] refs... => plan
//	resolve ... => error ASK_CODE
//	err| text                            the exact Error() text, then each
//	                                     ErrorDetail() line indented by two spaces
//	try| text                            the exact ErrorTry() lines
//	warn| CODE message                   the exact plan warnings
//	deps name => dep@1.0.0 ...           the Dependencies of one selection
//
// A plan is the selected skills sorted by name as name@version, prefixed
// by "dep:" or "sug:" for dependencies and suggestions and suffixed by
// "/registry" when the owner is not "official".
//
// Every resolve also runs with the references reversed, with the source
// listing versions and requirements in reverse order, and without
// prefetching, and must give the same plan or error byte for byte.
func TestScenarios(t *testing.T) {
	data, err := os.ReadFile("testdata/scenarios.txt")
	if err != nil {
		t.Fatal(err)
	}
	var (
		sc    *scenario
		count int
	)
	flush := func() {
		if sc != nil {
			count++
			sc.run(t)
		}
	}
	for i, line := range strings.Split(string(data), "\n") {
		lineno := i + 1
		line = strings.TrimRight(line, " \t")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if name, ok := strings.CutPrefix(line, "name:"); ok {
			flush()
			sc = &scenario{name: strings.TrimSpace(name), src: newMemSource(), pins: map[string]Pin{}}
			continue
		}
		if sc == nil {
			t.Fatalf("scenarios.txt:%d: line before the first name:", lineno)
		}
		if err := sc.parse(line, lineno); err != nil {
			t.Fatalf("scenarios.txt:%d: %v", lineno, err)
		}
	}
	flush()
	if count < 40 {
		t.Errorf("scenarios.txt has %d scenarios, want at least 40", count)
	}
}

type scenario struct {
	name  string
	src   *memSource
	pins  map[string]Pin
	cases []*scenarioCase
}

type scenarioCase struct {
	line     int
	pins     map[string]Pin
	refs     []string
	opts     Options
	want     string // plan or "error CODE"
	errLines []string
	tryLines []string
	warns    []string
	deps     map[string]string // name → "dep@v dep@v"
	checkErr bool
	checkTry bool
	checkWrn bool
}

func (sc *scenario) parse(line string, lineno int) error {
	last := func() (*scenarioCase, error) {
		if len(sc.cases) == 0 {
			return nil, fmt.Errorf("%q before any resolve", line)
		}
		return sc.cases[len(sc.cases)-1], nil
	}
	switch {
	case strings.HasPrefix(line, "registries:"):
		sc.src.order = strings.Fields(strings.TrimPrefix(line, "registries:"))
	case strings.HasPrefix(line, "pin "):
		f := strings.Fields(line)
		if len(f) < 3 || len(f) > 4 {
			return fmt.Errorf("pin takes a name, a version and an optional registry")
		}
		p := Pin{Version: f[2]}
		if len(f) == 4 {
			p.Registry = f[3]
		}
		sc.pins[f[1]] = p
	case strings.HasPrefix(line, "resolve "):
		lhs, rhs, ok := strings.Cut(strings.TrimPrefix(line, "resolve "), "=>")
		if !ok {
			return fmt.Errorf("resolve without =>")
		}
		c := &scenarioCase{line: lineno, pins: clonePins(sc.pins), want: strings.Join(strings.Fields(rhs), " "), deps: map[string]string{}}
		for _, f := range strings.Fields(lhs) {
			switch {
			case f == "--suggests":
				c.opts.WithSuggests = true
			case f == "--no-deps":
				c.opts.NoDeps = true
			case strings.HasPrefix(f, "--limit="):
				n, err := strconv.Atoi(strings.TrimPrefix(f, "--limit="))
				if err != nil {
					return err
				}
				c.opts.MaxSteps = n
			default:
				c.refs = append(c.refs, strings.ReplaceAll(f, "_", " "))
			}
		}
		sc.cases = append(sc.cases, c)
	case strings.HasPrefix(line, "err|"):
		c, err := last()
		if err != nil {
			return err
		}
		c.checkErr = true
		c.errLines = append(c.errLines, strings.TrimPrefix(strings.TrimPrefix(line, "err|"), " "))
	case strings.HasPrefix(line, "try|"):
		c, err := last()
		if err != nil {
			return err
		}
		c.checkTry = true
		c.tryLines = append(c.tryLines, strings.TrimSpace(strings.TrimPrefix(line, "try|")))
	case strings.HasPrefix(line, "warn|"):
		c, err := last()
		if err != nil {
			return err
		}
		c.checkWrn = true
		c.warns = append(c.warns, strings.TrimSpace(strings.TrimPrefix(line, "warn|")))
	case strings.HasPrefix(line, "nowarn"):
		c, err := last()
		if err != nil {
			return err
		}
		c.checkWrn = true
	case strings.HasPrefix(line, "deps "):
		c, err := last()
		if err != nil {
			return err
		}
		lhs, rhs, ok := strings.Cut(strings.TrimPrefix(line, "deps "), "=>")
		if !ok {
			return fmt.Errorf("deps without =>")
		}
		c.deps[strings.TrimSpace(lhs)] = strings.Join(strings.Fields(rhs), " ")
	default:
		return sc.parseVersion(line)
	}
	return nil
}

// parseVersion reads "[reg/]name version [deprecated][: items]".
func (sc *scenario) parseVersion(line string) error {
	head, items, _ := strings.Cut(line, ":")
	f := strings.Fields(head)
	if len(f) < 2 || len(f) > 3 || (len(f) == 3 && f[2] != "deprecated") {
		return fmt.Errorf("bad version line %q", line)
	}
	reg, name := "official", f[0]
	if r, n, ok := strings.Cut(f[0], "/"); ok {
		reg, name = r, n
	}
	v := memVersion{pub: Published{Version: f[1], Deprecated: len(f) == 3}}
	for _, it := range strings.Split(items, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		switch {
		case strings.HasPrefix(it, "+"):
			v.req.Suggests = append(v.req.Suggests, it[1:])
		case strings.HasPrefix(it, "?"):
			n, r, _ := strings.Cut(it[1:], " ")
			v.req.Optional = append(v.req.Optional, Constraint{Name: n, Range: strings.TrimSpace(r)})
		default:
			n, r, _ := strings.Cut(it, " ")
			v.req.Dependencies = append(v.req.Dependencies, Constraint{Name: n, Range: strings.TrimSpace(r)})
		}
	}
	sc.src.add(reg, name, v)
	return nil
}

func clonePins(m map[string]Pin) map[string]Pin {
	out := make(map[string]Pin, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (sc *scenario) run(t *testing.T) {
	t.Run(sc.name, func(t *testing.T) {
		if len(sc.cases) == 0 {
			t.Fatal("scenario has no resolve line")
		}
		for _, c := range sc.cases {
			sc.runCase(t, c)
		}
	})
}

// outcome runs one resolution and renders everything the scenario checks.
type outcome struct {
	plan *Plan
	text string // plan tokens or "error CODE"
	full string // Plan.String() or Error() + hints
	err  error
}

func resolveRefs(src Source, refs []string, opts Options) outcome {
	var parsed []Reference
	for _, r := range refs {
		ref, err := ParseReference(r)
		if err != nil {
			return errOutcome(err)
		}
		parsed = append(parsed, ref)
	}
	plan, err := Resolve(context.Background(), src, parsed, opts)
	if err != nil {
		return errOutcome(err)
	}
	var toks []string
	for _, s := range plan.Skills {
		tok := s.Name + "@" + s.Version
		switch s.Role {
		case RoleDependency:
			tok = "dep:" + tok
		case RoleSuggested:
			tok = "sug:" + tok
		}
		if s.Registry != "official" {
			tok += "/" + s.Registry
		}
		toks = append(toks, tok)
	}
	return outcome{plan: plan, text: strings.Join(toks, " "), full: plan.String()}
}

func errOutcome(err error) outcome {
	var e *Error
	if !errors.As(err, &e) {
		return outcome{text: "error " + err.Error(), full: err.Error(), err: err}
	}
	full := errText(err) + "\ntry: " + strings.Join(e.Try, "\ntry: ") + "\ncode: " + e.Code
	return outcome{text: "error " + e.Code, full: full, err: err}
}

// errText is err as err| lines spell it: Error(), then each detail line
// indented by two spaces.
func errText(err error) string {
	var e *Error
	if !errors.As(err, &e) || len(e.Detail) == 0 {
		return err.Error()
	}
	return err.Error() + "\n  " + strings.Join(e.Detail, "\n  ")
}

func (sc *scenario) runCase(t *testing.T, c *scenarioCase) {
	t.Helper()
	opts := c.opts
	opts.Pins = c.pins
	got := resolveRefs(sc.src, c.refs, opts)
	desc := fmt.Sprintf("line %d: resolve %s", c.line, strings.Join(c.refs, " "))
	if got.text != c.want {
		t.Errorf("%s = %s, want %s\n%s", desc, got.text, c.want, got.full)
		return
	}
	if c.checkErr {
		if got.err == nil {
			t.Errorf("%s: no error to compare", desc)
		} else if want := strings.Join(c.errLines, "\n"); errText(got.err) != want {
			t.Errorf("%s: Error() and ErrorDetail() =\n%s\nwant\n%s", desc, errText(got.err), want)
		}
	}
	if c.checkTry {
		var h interface{ ErrorTry() []string }
		if !errors.As(got.err, &h) {
			t.Errorf("%s: error has no ErrorTry()", desc)
		} else if !slices.Equal(h.ErrorTry(), c.tryLines) {
			t.Errorf("%s: ErrorTry() = %q, want %q", desc, h.ErrorTry(), c.tryLines)
		}
	}
	if got.plan != nil {
		var ws []string
		for _, w := range got.plan.Warnings {
			ws = append(ws, w.String())
		}
		if c.checkWrn && !slices.Equal(ws, c.warns) {
			t.Errorf("%s: warnings = %q, want %q", desc, ws, c.warns)
		}
		for name, want := range c.deps {
			s, ok := got.plan.Lookup(name)
			if !ok {
				t.Errorf("%s: no %s in the plan", desc, name)
				continue
			}
			var toks []string
			for _, d := range sortedKeys(s.Dependencies) {
				toks = append(toks, d+"@"+s.Dependencies[d])
			}
			if g := strings.Join(toks, " "); g != want {
				t.Errorf("%s: deps of %s = %q, want %q", desc, name, g, want)
			}
		}
		checkPlanConsistent(t, desc, got.plan)
	}
	// The same outcome for any order of the input and without prefetching.
	rev := slices.Clone(c.refs)
	slices.Reverse(rev)
	variants := []struct {
		what string
		src  Source
		refs []string
		par  int
	}{
		{"reversed references and versions", sc.src.reversed(), rev, 0},
		{"no prefetching", sc.src, c.refs, 1},
	}
	for _, v := range variants {
		o := opts
		o.Parallelism = v.par
		other := resolveRefs(v.src, v.refs, o)
		if other.full != got.full {
			t.Errorf("%s with %s =\n%s\nwant the same as\n%s", desc, v.what, other.full, got.full)
		}
	}
}

// checkPlanConsistent checks that every dependency recorded in the plan
// points at the version the plan selects.
func checkPlanConsistent(t *testing.T, desc string, p *Plan) {
	t.Helper()
	for _, s := range p.Skills {
		for d, v := range s.Dependencies {
			sel, ok := p.Lookup(d)
			if !ok || sel.Version != v {
				t.Errorf("%s: %s@%s depends on %s@%s, but the plan selects %+v", desc, s.Name, s.Version, d, v, sel)
			}
		}
	}
}

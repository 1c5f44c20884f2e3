package resolve_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/resolve"
)

// skillVersion is one published version in the example registry.
type skillVersion struct {
	version string
	deps    []resolve.Constraint
}

// registry is a tiny in-memory resolve.Source: one registry, "official".
type registry map[string][]skillVersion

func (r registry) Versions(ctx context.Context, reg, name string) (string, []resolve.Published, error) {
	vs, ok := r[name]
	if !ok || (reg != "" && reg != "official") {
		return "", nil, fmt.Errorf("%w: %s", resolve.ErrNotFound, name)
	}
	var out []resolve.Published
	for _, v := range vs {
		out = append(out, resolve.Published{Version: v.version})
	}
	return "official", out, nil
}

func (r registry) Requirements(ctx context.Context, reg, name, version string) (resolve.Requirements, error) {
	for _, v := range r[name] {
		if v.version == version {
			return resolve.Requirements{Dependencies: v.deps}, nil
		}
	}
	return resolve.Requirements{}, resolve.ErrNotFound
}

var example = registry{
	"java-performance": {{"1.0.0", []resolve.Constraint{{Name: "java-basics", Range: "^1.2.0"}}}},
	"jvm-gc-tuning": {
		{"2.1.0", []resolve.Constraint{{Name: "java-basics", Range: "~1.1.0"}}},
		{"2.2.0", []resolve.Constraint{{Name: "java-basics", Range: "^1.1.0"}}},
	},
	"java-basics": {{"1.1.0", nil}, {"1.2.0", nil}, {"1.2.3", nil}},
}

func ExampleResolve() {
	var refs []resolve.Reference
	for _, arg := range []string{"java-performance", "jvm-gc-tuning"} {
		ref, err := resolve.ParseReference(arg)
		if err != nil {
			fmt.Println(err)
			return
		}
		refs = append(refs, ref)
	}
	plan, err := resolve.Resolve(context.Background(), example, refs, resolve.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range plan.Skills {
		fmt.Printf("%s@%s from %s (%s)\n", s.Name, s.Version, s.Registry, s.Role)
	}
	// Output:
	// java-basics@1.2.3 from official (dependency)
	// java-performance@1.0.0 from official (requested)
	// jvm-gc-tuning@2.2.0 from official (requested)
}

// An Error is data: a code, a one-line message, the lines that explain it
// and the next actions. The CLI renders it in the design's §8 shape
// (error:, the detail lines, Try:, code:).
func ExampleError() {
	refs := []resolve.Reference{
		{Name: "java-performance", Range: "^1"},
		{Name: "jvm-gc-tuning", Range: "~2.1.0"},
	}
	_, err := resolve.Resolve(context.Background(), example, refs, resolve.Options{})
	var e *resolve.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code)
		fmt.Println(e.Error())
		for _, d := range e.Detail {
			fmt.Println("  " + d)
		}
		for _, t := range e.Try {
			fmt.Println("try: " + t)
		}
	}
	// Output:
	// ASK_DEPENDENCY_CONFLICT
	// Version conflict for "java-basics"
	//   you requested java-performance@^1 → java-performance@1.0.0 requires java-basics ^1.2.0
	//   you requested jvm-gc-tuning@~2.1.0 → jvm-gc-tuning@2.1.0 requires java-basics ~1.1.0
	//   No published version satisfies both.
	//   Published versions: 1.1.0, 1.2.0, 1.2.3
	// try: agent-skills info java-basics to see available versions
	// try: agent-skills install jvm-gc-tuning@^2.2.0 (newer versions may relax this)
}

func ExampleParseReference() {
	ref, err := resolve.ParseReference("official:java-basics@^1.2")
	fmt.Printf("%q %q %q %v\n", ref.Registry, ref.Name, ref.Range, err)

	_, err = resolve.ParseReference("Java_Basics")
	var coded interface{ ErrorCode() string }
	if errors.As(err, &coded) {
		fmt.Println(coded.ErrorCode())
	}
	// Output:
	// "official" "java-basics" "^1.2" <nil>
	// ASK_REFERENCE_INVALID
}

func ExampleDecodeLock() {
	data := []byte(`lockfileVersion: 1
skills:
  java-basics:
    version: 1.2.3
    registry: official
    agents: [codex, claude-code]
`)
	lock, err := resolve.DecodeLock(data, "skills.lock")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(lock.Pins()["java-basics"])
	// Encode sorts the agents and writes every key in a fixed order.
	fmt.Print(string(lock.Encode()))

	_, err = resolve.DecodeLock([]byte("lockfileVersion: 1\nskills:\n  java-basics:\n    registry: official\n"), "skills.lock")
	fmt.Println(err)
	var e *resolve.Error
	if errors.As(err, &e) {
		fmt.Println("| " + strings.Join(e.Detail, "\n| "))
	}
	// Output:
	// {1.2.3 official}
	// lockfileVersion: 1
	// skills:
	//   java-basics:
	//     version: 1.2.3
	//     registry: official
	//     agents: [claude-code, codex]
	//     dependencies: {}
	// skills.lock is not a valid lock file
	// | skills.lock:3:3: skills.java-basics has no version
}

package agents

import (
	"context"
	"encoding/json"
	"path/filepath"
)

// Confidence grades the evidence that an agent is installed.
type Confidence string

const (
	// ConfidenceStrong means the agent's configuration folder exists or its
	// executable is on PATH. Strong agents are selected automatically.
	ConfidenceStrong Confidence = "strong"
	// ConfidenceWeak means only a project marker was found (a .claude/ or
	// .agents/ folder). Weak agents are reported but need --agent.
	ConfidenceWeak Confidence = "weak"
	// ConfidenceNone means nothing was found.
	ConfidenceNone Confidence = "none"
)

// Evidence kinds reported by Detect.
const (
	// EvidenceConfigDir is the agent's configuration folder.
	EvidenceConfigDir = "config-dir"
	// EvidenceExecutable is the agent's executable found on PATH.
	EvidenceExecutable = "executable"
	// EvidenceProjectMarker is a file or folder in the project that the
	// agent uses.
	EvidenceProjectMarker = "project-marker"
)

// Evidence is one thing Detect found.
type Evidence struct {
	// Kind is one of the Evidence* constants.
	Kind string `json:"kind"`
	// Detail is the path that was found.
	Detail string `json:"detail"`
}

// Strong reports whether the evidence alone makes detection strong.
func (e Evidence) Strong() bool { return e.Kind != EvidenceProjectMarker }

// Detection is the result of looking for one agent.
type Detection struct {
	// Installed is true when there is strong evidence.
	Installed bool `json:"installed"`
	// Confidence grades the evidence.
	Confidence Confidence `json:"confidence"`
	// Evidence lists everything found, strong evidence first.
	Evidence []Evidence `json:"evidence"`
	// Version is the agent's version when it could be read cheaply, or "".
	Version string `json:"version,omitempty"`
}

// Detect implements Adapter. It stats the agent's configuration folders
// and project markers and looks its executables up on PATH; it reads a
// version from the npm package.json behind the executable when it can,
// and otherwise asks env.Version. It never runs the agent itself.
//
// An executable that env.LookPath reports as a relative path, or inside
// the project, is neither evidence nor asked for its version: it comes
// from a relative PATH entry or one the project controls (npm puts
// node_modules/.bin first), and running it would run the project's code
// (issue 11, B16).
func (a *tableAdapter) Detect(ctx context.Context, env Env) Detection {
	d := Detection{Confidence: ConfidenceNone, Evidence: []Evidence{}}
	for _, p := range a.row.configDirs {
		if dir := p.resolve(env); env.isDir(dir) {
			d.Evidence = append(d.Evidence, Evidence{Kind: EvidenceConfigDir, Detail: dir})
		}
	}
	var exe string
	if env.LookPath != nil {
		for _, name := range a.row.executables {
			if ctx.Err() != nil {
				break
			}
			if path, err := env.LookPath(name); err == nil && path != "" && !env.projectLocal(path) {
				d.Evidence = append(d.Evidence, Evidence{Kind: EvidenceExecutable, Detail: path})
				if exe == "" {
					exe = path
				}
			}
		}
	}
	if env.ProjectRoot != "" && (env.Home == "" || filepath.Clean(env.ProjectRoot) != filepath.Clean(env.Home)) {
		for _, m := range a.row.markers {
			if p := filepath.Join(env.ProjectRoot, filepath.FromSlash(m)); env.exists(p) {
				d.Evidence = append(d.Evidence, Evidence{Kind: EvidenceProjectMarker, Detail: p})
			}
		}
	}
	for _, e := range d.Evidence {
		if e.Strong() {
			d.Confidence, d.Installed = ConfidenceStrong, true
			break
		}
		d.Confidence = ConfidenceWeak
	}
	if exe != "" {
		d.Version = a.version(ctx, env, exe)
	}
	return d
}

// maxPackageWalk bounds how many folders above the resolved executable are
// searched for the agent's package.json.
const maxPackageWalk = 4

// version reads the agent's version: first from the package.json of its
// npm package found next to the resolved executable, then through
// env.Version. It returns "" when neither works.
func (a *tableAdapter) version(ctx context.Context, env Env, exe string) string {
	if a.row.npmPackage != "" && env.ReadFile != nil && env.EvalSymlinks != nil {
		if real, err := env.EvalSymlinks(exe); err == nil {
			dir := filepath.Dir(real)
			for range maxPackageWalk {
				if v := npmVersion(env, filepath.Join(dir, "package.json"), a.row.npmPackage); v != "" {
					return v
				}
				parent := filepath.Dir(dir)
				if parent == dir {
					break
				}
				dir = parent
			}
		}
	}
	if env.Version != nil && ctx.Err() == nil {
		if v, err := env.Version(ctx, a.row.id, exe); err == nil {
			return v
		}
	}
	return ""
}

// maxPackageJSON caps the size of a package.json read for a version.
const maxPackageJSON = 1 << 20

// npmVersion returns the version in the package.json at path when its name
// is pkg, or "".
func npmVersion(env Env, path, pkg string) string {
	data, err := env.ReadFile(path)
	if err != nil || len(data) > maxPackageJSON {
		return ""
	}
	var meta struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &meta) != nil || meta.Name != pkg {
		return ""
	}
	return meta.Version
}

// Report is one agent's detection result.
type Report struct {
	Adapter   Adapter
	Detection Detection
}

// DetectAll runs Detect for every adapter, in order. It stops early, with
// the reports gathered so far, when ctx is cancelled.
func DetectAll(ctx context.Context, env Env, adapters []Adapter) []Report {
	out := make([]Report, 0, len(adapters))
	for _, a := range adapters {
		if ctx.Err() != nil {
			break
		}
		out = append(out, Report{Adapter: a, Detection: a.Detect(ctx, env)})
	}
	return out
}

// AutoSelect returns the agents with strong evidence, in report order: the
// agents an install acts on when no --agent is given. When there are none
// it returns the ASK_NO_AGENT error, listing every reported agent as
// supported and naming those with weak evidence.
func AutoSelect(reports []Report) ([]Adapter, error) {
	var strong, weak, all []Adapter
	for _, r := range reports {
		all = append(all, r.Adapter)
		switch r.Detection.Confidence {
		case ConfidenceStrong:
			strong = append(strong, r.Adapter)
		case ConfidenceWeak:
			weak = append(weak, r.Adapter)
		}
	}
	if len(strong) == 0 {
		return nil, NoAgentError(all, weak)
	}
	return strong, nil
}

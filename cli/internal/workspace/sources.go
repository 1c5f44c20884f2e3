package workspace

import (
	"os"

	"github.com/agent-skills/agent-skills/cli/internal/source"
)

// SourceOptions are the options every fetch of a direct source uses; dir
// receives the materialised packages, skills are the ones asked for. The
// caller sets the interactive picker, if any.
func (m *Machine) SourceOptions(dir string, skills []string) source.Options {
	return source.Options{
		CacheDir:     m.CacheDir(),
		Dir:          dir,
		Skills:       skills,
		Getenv:       m.Getenv,
		OverrideKeys: m.OverrideKeys(),
		HTTPTimeouts: m.HTTP,
		Notify:       m.notify,
		Offline:      m.Offline(),
	}
}

// SplitSources separates direct sources (owner/repo, git URLs, folders,
// archives) from registry references among the arguments.
func (m *Machine) SplitSources(args []string) ([]source.Ref, []string, error) {
	var srcs []source.Ref
	var rest []string
	isDir := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	for _, a := range args {
		r, ok, err := source.Parse(a, m.Cwd, isDir)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			srcs = append(srcs, r)
		} else {
			rest = append(rest, a)
		}
	}
	return srcs, rest, nil
}

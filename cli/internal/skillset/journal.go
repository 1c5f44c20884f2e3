package skillset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// journalSchema is the version of the intent journal's format.
const journalSchema = 1

// Changes a journal records for one skill.
const (
	// changeInstall puts a version in place (install, update, restore,
	// or a new dependency map for a skill that stays put).
	changeInstall = "install"
	// changeRemove takes the skill away for the journal's agents.
	changeRemove = "remove"
)

// journal is the intent record of one command that changes the agent
// roots and skills.lock together. It is written, durably, before the
// roots change and removed once skills.lock records what the roots hold,
// so that a run killed in between leaves it behind for the next run to
// finish (see settle).
//
// It lives in the user's agent-skills home, next to the run lock of the
// project ($AGENT_SKILLS_HOME/locks/<key>.journal), never in the project:
// project files come from whoever published the repository, and a
// journal there could name any lock entry to rewrite.
type journal struct {
	SchemaVersion int `json:"schemaVersion"`
	// Command is the command that wrote it: install, update, uninstall,
	// disable or enable.
	Command string `json:"command"`
	// Requested are the names the user gave the command, for the message
	// that says how to finish it.
	Requested []string `json:"requested,omitempty"`
	// Flags are the command's other flags that running it again needs
	// (--skill, --major, …), in order.
	Flags []string `json:"flags,omitempty"`
	// Project is the project root; a journal for another root is not
	// this project's.
	Project string `json:"project"`
	// Agents are the ids of the agents whose roots the command changed.
	Agents []string `json:"agents"`
	// Started is when the command wrote the journal (UTC, RFC 3339).
	Started string `json:"started"`
	// Skills are the lock entries the command changes, by name.
	Skills map[string]journalSkill `json:"skills"`
}

// journalSkill is one skill's change: its lock entry before, and the
// entry meant after (none for a removal).
type journalSkill struct {
	Change string     `json:"change"`
	Before *lockEntry `json:"before,omitempty"`
	After  *lockEntry `json:"after,omitempty"`
}

// lockEntry is a resolve.LockedSkill as the journal stores it.
type lockEntry struct {
	Version      string            `json:"version"`
	Registry     string            `json:"registry,omitempty"`
	Source       string            `json:"source,omitempty"`
	Ref          string            `json:"ref,omitempty"`
	Commit       string            `json:"commit,omitempty"`
	Subpath      string            `json:"subpath,omitempty"`
	Resolved     string            `json:"resolved,omitempty"`
	Integrity    string            `json:"integrity,omitempty"`
	Agents       []string          `json:"agents"`
	Dependencies map[string]string `json:"dependencies"`
	// Disabled is the entry's disabled state (agent-skills disable).
	Disabled bool `json:"disabled,omitempty"`
}

// entryOf copies a lock entry into the journal's form.
func entryOf(s resolve.LockedSkill) *lockEntry {
	e := lockEntry{Version: s.Version, Registry: s.Registry, Source: s.Source, Ref: s.Ref, Commit: s.Commit,
		Subpath: s.Subpath, Resolved: s.Resolved, Integrity: s.Integrity,
		Agents: slices.Clone(s.Agents), Dependencies: map[string]string{}, Disabled: s.Disabled}
	for k, v := range s.Dependencies {
		e.Dependencies[k] = v
	}
	return &e
}

// locked returns the entry as skills.lock holds it.
func (le *lockEntry) locked() resolve.LockedSkill {
	s := resolve.LockedSkill{Version: le.Version, Registry: le.Registry, Source: le.Source, Ref: le.Ref,
		Commit: le.Commit, Subpath: le.Subpath, Resolved: le.Resolved, Integrity: le.Integrity,
		Agents: sortedAgents(le.Agents), Dependencies: map[string]string{}, Disabled: le.Disabled}
	for k, v := range le.Dependencies {
		s.Dependencies[k] = v
	}
	return s
}

// newJournal starts the journal of a command acting for adapters in the
// project of sc.
func newJournal(command string, requested, flags []string, sc workspace.Scope, adapters []agents.Adapter) *journal {
	j := &journal{SchemaVersion: journalSchema, Command: command, Requested: slices.Clone(requested),
		Flags: slices.Clone(flags), Project: sc.Root, Started: time.Now().UTC().Format(time.RFC3339),
		Skills: map[string]journalSkill{}}
	for _, a := range adapters {
		j.Agents = append(j.Agents, a.ID())
	}
	j.Agents = sortedAgents(j.Agents)
	return j
}

// empty reports whether the journal records no change.
func (j *journal) empty() bool { return len(j.Skills) == 0 }

// names returns the journalled names of one change, sorted.
func (j *journal) names(change string) []string {
	var out []string
	for n, s := range j.Skills {
		if s.Change == change {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// rerun is the command line that runs the journalled command again.
func (j *journal) rerun() string {
	parts := []string{"agent-skills", j.Command}
	parts = append(parts, j.Requested...)
	parts = append(parts, j.Flags...)
	if len(j.Agents) > 0 {
		parts = append(parts, "--agent", strings.Join(j.Agents, ","))
	}
	return strings.Join(parts, " ")
}

// String names the journalled command for messages, shortening long
// lists of names.
func (j *journal) String() string {
	parts := []string{"agent-skills", j.Command}
	if len(j.Requested) > 0 {
		parts = append(parts, nameList(j.Requested))
	}
	return strings.Join(parts, " ")
}

// nameList joins names, eliding the middle of a long list.
func nameList(names []string) string {
	const keep = 6
	if len(names) <= keep+1 {
		return strings.Join(names, " ")
	}
	return fmt.Sprintf("%s … %s (%d skills)", strings.Join(names[:keep-1], " "), names[len(names)-1], len(names))
}

// writeJournal makes j durable at path before the roots change: a
// journal that is not on disk cannot be finished.
func writeJournal(path string, j *journal) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return askerr.IO("cannot create "+filepath.Dir(path), err)
	}
	var encErr error
	err := atomicfile.WriteWith(path, 0o600, func(w io.Writer) error {
		encErr = encodeJournal(w, j)
		return encErr
	})
	switch {
	case encErr != nil && !errors.As(encErr, new(*writeError)):
		return askerr.Internal("cannot encode the run journal", encErr)
	case err != nil:
		return askerr.IO("cannot write the run journal "+path, err)
	}
	return nil
}

// writeError is a failure of the writer encodeJournal writes to.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// encodeJournal writes j as json.MarshalIndent(j, "", "  ") and a newline
// would, one skill at a time: the journal of an install of 10,000 skills
// is megabytes, which the whole-value encoder would hold two or three
// copies of at once.
func encodeJournal(w io.Writer, j *journal) error {
	head := *j
	head.Skills = nil
	data, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		return err
	}
	// The head ends with the last field, "skills": null, and "}".
	const tail = "null\n}"
	if !bytes.HasSuffix(data, []byte(tail)) {
		return fmt.Errorf("the journal's head ends in %q, not skills", data[max(0, len(data)-len(tail)):])
	}
	write := func(b []byte) error {
		if _, err := w.Write(b); err != nil {
			return &writeError{err}
		}
		return nil
	}
	if err := write(data[:len(data)-len(tail)]); err != nil {
		return err
	}
	switch {
	case j.Skills == nil:
		return write([]byte(tail + "\n"))
	case len(j.Skills) == 0:
		return write([]byte("{}\n}\n"))
	}
	// One buffer and two encoders serve every skill: an entry is encoded
	// as MarshalIndent would nest it (its lines indented by four spaces),
	// the newline each Encode ends with dropped.
	var buf bytes.Buffer
	keys, entries := json.NewEncoder(&buf), json.NewEncoder(&buf)
	entries.SetIndent("    ", "  ")
	for i, n := range slices.Sorted(maps.Keys(j.Skills)) {
		buf.Reset()
		if i == 0 {
			buf.WriteString("{\n    ")
		} else {
			buf.WriteString(",\n    ")
		}
		if err := keys.Encode(n); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1)
		buf.WriteString(": ")
		if err := entries.Encode(j.Skills[n]); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1)
		if err := write(buf.Bytes()); err != nil {
			return err
		}
	}
	return write([]byte("\n  }\n}\n"))
}

// removes reports whether j removed skill name.
func (j *journal) removes(name string) bool {
	return j != nil && j.Skills[name].Change == changeRemove
}

// removeJournal deletes the journal once skills.lock records its outcome.
func removeJournal(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return askerr.IO("cannot remove the run journal "+path, err, "check the permissions of "+filepath.Dir(path))
	}
	return nil
}

// readJournal reads the journal at path for the project root; a missing
// one is (nil, nil). A journal that cannot be used is ASK_JOURNAL_INVALID:
// it is never ignored, since the lock it was to fix would stay wrong.
func readJournal(path, root string, table *agents.Table) (*journal, error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, askerr.IO("cannot read the run journal "+path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, journalInvalid(path, "it is not a regular file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, askerr.IO("cannot read the run journal "+path, err)
	}
	var j journal
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, journalInvalid(path, err.Error())
	}
	if problem := j.check(root, table); problem != "" {
		return nil, journalInvalid(path, problem)
	}
	return &j, nil
}

// check returns what makes j unusable for the project root, or "".
func (j *journal) check(root string, table *agents.Table) string {
	switch {
	case j.SchemaVersion != journalSchema:
		return fmt.Sprintf("unsupported schemaVersion %d", j.SchemaVersion)
	case j.Project != root:
		return fmt.Sprintf("it belongs to the project %s, not %s", j.Project, root)
	case !slices.Contains([]string{"install", "update", "uninstall", "disable", "enable"}, j.Command):
		return fmt.Sprintf("unknown command %q", j.Command)
	}
	if _, err := table.Select(j.Agents); err != nil || len(j.Agents) == 0 {
		return fmt.Sprintf("it names agents this agent-skills does not know: %v", j.Agents)
	}
	for n, s := range j.Skills {
		if !format.ValidName(n) {
			return fmt.Sprintf("%q is not a skill name", n)
		}
		switch {
		case s.Change == changeInstall && s.After == nil:
			return fmt.Sprintf("the install of %s records no entry to install", n)
		case s.Change == changeRemove && s.After != nil:
			return fmt.Sprintf("the removal of %s records an entry to install", n)
		case s.Change != changeInstall && s.Change != changeRemove:
			return fmt.Sprintf("unknown change %q for %s", s.Change, n)
		}
	}
	return ""
}

// journalInvalid is the error for a journal that cannot be used.
func journalInvalid(path, why string) *askerr.Error {
	return &askerr.Error{Code: CodeJournalInvalid,
		Message: "the journal of an interrupted run cannot be used: " + why,
		Detail:  []string{path, "skills.lock may not record what the agent folders hold until it is dealt with."},
		Try: []string{"look at it, then remove it: rm " + path,
			"then agent-skills doctor shows what skills.lock and the agent folders disagree on"}}
}

package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Report is what one run of enable, status or disable found and did for
// one host and scope.
type Report struct {
	Host  string `json:"host"`
	Scope Scope  `json:"scope"`
	// Entries says, entry by entry, what the file holds or what was done.
	Entries []EntryReport `json:"entries"`
	// Changes are the files the run changes (or, in a preview, would).
	Changes []Change `json:"changes,omitempty"`
	// Notes are the host's trust gates.
	Notes []string `json:"notes,omitempty"`
	// Receipt is the receipt's path, shown.
	Receipt string `json:"receipt"`
	// Written says the changes were written.
	Written bool `json:"written"`
	// Err is why the host was refused or left partly done.
	Err error `json:"-"`
}

// EntryReport is one entry's state or outcome.
type EntryReport struct {
	Part  Part   `json:"part"`
	File  string `json:"file"`
	Where string `json:"where"`
	// Status is, for enable: add, update (replaces setup's own older,
	// unchanged entry), registered, conflict; for status:
	// registered, modified, missing, not-registered, foreign,
	// unreadable; for disable: remove, left, gone.
	Status string `json:"status"`
	// Detail explains the status in one sentence.
	Detail string `json:"detail,omitempty"`
	// Command is the check of the command the entry runs (status).
	Command *CommandCheck `json:"command,omitempty"`
	// Found is what the file holds there, when it is not ours as written.
	Found json.RawMessage `json:"found,omitempty"`
}

// Change is one file a run changes.
type Change struct {
	// File is the file, shown.
	File string `json:"file"`
	// Diff is the unified diff from the old content to the new one.
	Diff string `json:"diff"`
	// Removed says the file goes.
	Removed bool `json:"removed,omitempty"`

	path     string
	scope    Scope
	old, new []byte
}

// fileWork is one file's entries and document during a run.
type fileWork struct {
	path    string
	shown   string
	scope   Scope
	old     []byte
	doc     Document
	entries []Entry
}

// group reads and parses the files of entries, in order of first use.
func group(env Env, scope Scope, entries []Entry) ([]*fileWork, error) {
	var out []*fileWork
	byPath := map[string]*fileWork{}
	for _, e := range entries {
		w := byPath[e.File]
		if w == nil {
			fs := fileScope(env, scope, e.File)
			w = &fileWork{path: e.File, shown: Shown(env, e.File), scope: fs}
			data, err := readSettings(e.File, fs)
			if err == nil && fs == Project {
				err = confined(env.ProjectRoot, e.File)
			}
			if err != nil {
				reason := err.Error()
				if errors.Is(err, atomicfile.ErrNotPlain) {
					reason = "it is not a regular file (in a project, a symbolic link is refused)"
				}
				return nil, fileInvalid(w.shown, reason)
			}
			w.old = data
			if w.doc, err = e.Format.Open(w.shown, data); err != nil {
				var fe *FileError
				if errors.As(err, &fe) {
					return nil, fileInvalid(w.shown, fe.Reason)
				}
				return nil, fileInvalid(w.shown, err.Error())
			}
			byPath[e.File] = w
			out = append(out, w)
		}
		w.entries = append(w.entries, e)
	}
	return out, nil
}

// fileScope is the scope a file is read and written in: a project run's
// file outside the project is the user's (Codex keeps a project hook's
// trust in the user's config.toml; loadReceipt lets a project receipt
// name no other file outside the project).
func fileScope(env Env, scope Scope, file string) Scope {
	if scope != Project {
		return scope
	}
	if rel, err := filepath.Rel(env.ProjectRoot, file); err == nil && filepath.IsLocal(rel) {
		return Project
	}
	return User
}

// confined fails when file, its links resolved as far as it exists, is
// outside root: a project's .claude folder that links to ~/.claude must
// not turn a project edit into a user one.
func confined(root, file string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	p := file
	for {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(realRoot, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("it resolves to %s, outside the project", real)
	}
	return nil
}

// diffOf renders the change of one file as a unified diff.
func diffOf(shown string, old, new []byte, existed bool) string {
	from, to := "a/"+shown, "b/"+shown
	if !existed {
		from = "/dev/null"
	}
	if new == nil {
		to = "/dev/null"
	}
	return udiff.Unified(from, to, string(old), string(new))
}

// now returns the receipt time: SOURCE_DATE_EPOCH when set (reproducible
// output), else the clock, in UTC to the second.
func now(env Env) string {
	if s := env.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		var n int64
		if _, err := fmt.Sscan(s, &n); err == nil {
			return time.Unix(n, 0).UTC().Format(time.RFC3339)
		}
	}
	return time.Now().UTC().Format(time.RFC3339)
}

// Enable plans the registration of host in scope and, with write, applies
// it: every file change is checked by parsing the result again before
// anything is written, and nothing of the host is written when one of its
// files does not parse or already holds a different agent-skills entry.
func Enable(env Env, host Host, scope Scope, o Options, write bool) *Report {
	r, entries, rec := start(env, host, scope, o)
	if r.Err != nil {
		return r
	}
	files, err := group(env, scope, entries)
	if err != nil {
		r.Err = err
		return r
	}
	stamp := now(env)
	var conflicts []string
	for _, w := range files {
		for _, e := range w.entries {
			er := EntryReport{Part: e.Part, File: w.shown, Where: e.where()}
			idx := rec.find(e)
			state, got := w.doc.Find(e)
			switch state {
			case Same:
				er.Status = "registered"
				if idx < 0 {
					er.Detail = "already there, not written by setup: setup leaves it to you"
				}
			case Different:
				if idx >= 0 {
					if prev := rec.Entries[idx]; sameAsWritten(w.doc, prev) {
						// An older write of ours, unchanged (another
						// version or --command): replace it.
						if err := w.doc.Remove(prev.Entry, nil); err == nil {
							created, err := w.doc.Add(e)
							if err == nil {
								er.Status, er.Detail = "update", "replaces what setup wrote before"
								owned := e
								owned.Value = Canonical(e.Value)
								rec.Entries[idx] = Owned{File: prev.File, Format: e.Format.Name(), Entry: owned, Created: mergeCreated(prev.Created, created),
									NewFile: prev.NewFile, NewDirs: prev.NewDirs, Version: env.Version, Written: stamp}
								r.Entries = append(r.Entries, er)
								continue
							}
						}
					}
				}
				er.Status, er.Found = "conflict", got
				if idx >= 0 {
					er.Detail = "setup wrote it, and it has changed since: setup does not overwrite your edit"
				} else {
					er.Detail = "the file already holds an agent-skills entry that setup did not write: setup does not overwrite it"
				}
				conflicts = append(conflicts, fmt.Sprintf("%s: %s", w.shown, e.where()))
			case Absent:
				created, err := w.doc.Add(e)
				if err != nil {
					er.Status, er.Detail = "conflict", "cannot add it: "+err.Error()
					conflicts = append(conflicts, fmt.Sprintf("%s: %s: %v", w.shown, e.where(), err))
					break
				}
				er.Status = "add"
				owned := e
				owned.Value = Canonical(e.Value)
				o := Owned{File: toReceipt(env, scope, e.File), Format: e.Format.Name(), Entry: owned, Created: created, NewFile: w.old == nil, Version: env.Version, Written: stamp}
				if o.NewFile {
					for _, d := range missingDirs(w.path) {
						o.NewDirs = append(o.NewDirs, toReceipt(env, scope, d))
					}
				}
				if idx >= 0 {
					rec.Entries[idx] = o
				} else {
					rec.Entries = append(rec.Entries, o)
				}
			}
			r.Entries = append(r.Entries, er)
		}
	}
	if len(conflicts) > 0 {
		r.Err = &askerr.Error{Code: CodeConflict, Message: "setup would overwrite an agent-skills entry it did not write as it is",
			Detail: append(conflicts, "nothing was written for "+host.Name()),
			Try:    []string{"agent-skills setup status --host " + host.Name(), "remove or rename the entry yourself, then run the command again"}}
		return r
	}
	for _, w := range files {
		nb := w.doc.Bytes()
		if bytes.Equal(nb, w.old) {
			continue
		}
		if err := recheck(w, nb); err != nil {
			r.Err = askerr.Internal("the edit of "+w.shown+" does not read back", err)
			return r
		}
		r.Changes = append(r.Changes, Change{File: w.shown, Diff: diffOf(w.shown, w.old, nb, w.old != nil), path: w.path, scope: w.scope, old: w.old, new: nb})
	}
	if !write {
		return r
	}
	if len(r.Changes) > 0 {
		if err := apply(r.Changes); err != nil {
			r.Err = err
			return r
		}
		r.Written = true
	}
	if aw, ok := host.(afterWriter); ok {
		n := len(rec.Entries)
		notes, err := aw.afterWrite(env, scope, o, rec, stamp)
		r.Notes = append(r.Notes, notes...)
		if err != nil {
			r.Err = err
		}
		if len(rec.Entries) != n {
			r.Written = true
		}
	}
	if r.Written {
		if err := rec.save(env); err != nil && r.Err == nil {
			r.Err = err
		}
	}
	return r
}

// recheck parses a file's new bytes again and checks that they hold every
// entry of the file.
func recheck(w *fileWork, nb []byte) error {
	if nb == nil {
		return nil
	}
	if len(w.entries) == 0 {
		return nil
	}
	doc, err := w.entries[0].Format.Open(w.shown, nb)
	if err != nil {
		return err
	}
	for _, e := range w.entries {
		if st, _ := doc.Find(e); st != Same {
			return fmt.Errorf("%s reads back as %s", e.where(), st)
		}
	}
	return nil
}

// apply writes the changes, one atomic write (or removal) per file.
func apply(changes []Change) error {
	for _, c := range changes {
		var err error
		if c.new == nil {
			err = removeFile(c.path)
		} else {
			err = writeSettings(c.path, c.scope, c.new)
		}
		if err != nil {
			return askerr.IO("cannot write "+c.File, err)
		}
	}
	return nil
}

// Status reports, entry by entry, what the host's files hold of what
// setup writes or wrote, and whether the commands they run still run.
func Status(env Env, host Host, scope Scope, o Options, check func(Env, string) *CommandCheck) *Report {
	r, entries, rec := start(env, host, scope, o)
	if r.Err != nil {
		return r
	}
	type item struct {
		e     Entry
		owned bool
	}
	var items []item
	for _, o := range rec.Entries {
		items = append(items, item{o.Entry, true})
	}
	for _, e := range entries {
		if rec.find(e) < 0 {
			items = append(items, item{e, false})
		}
	}
	checked := map[string]*CommandCheck{}
	for _, it := range items {
		e := it.e
		er := EntryReport{Part: e.Part, File: Shown(env, e.File), Where: e.where()}
		files, err := group(env, scope, []Entry{e})
		if err != nil {
			er.Status, er.Detail = "unreadable", err.Error()
			r.Entries = append(r.Entries, er)
			continue
		}
		state, got := files[0].doc.Find(e)
		switch {
		case it.owned && state == Same:
			er.Status, er.Detail = "registered", "as setup wrote it"
		case it.owned && state == Different:
			er.Status, er.Detail, er.Found = "modified", "changed since setup wrote it", got
		case it.owned:
			er.Status, er.Detail = "missing", "setup wrote it, and it is gone"
		case state == Same:
			er.Status, er.Detail = "registered", "not written by setup (disable leaves it)"
		case state == Different:
			er.Status, er.Detail, er.Found = "foreign", "an agent-skills entry that setup did not write", got
		default:
			er.Status = "not-registered"
		}
		if er.Status == "registered" || er.Status == "modified" {
			c, ok := checked[e.Command]
			if !ok {
				c = check(env, e.Command)
				checked[e.Command] = c
			}
			er.Command = c
		}
		r.Entries = append(r.Entries, er)
	}
	return r
}

// Disable removes the entries the receipt lists that are unchanged since
// setup wrote them, and the receipt once it lists nothing; an entry the
// user changed stays, and the report names it (ASK_SETUP_PARTIAL).
// Without write it only previews.
func Disable(env Env, host Host, scope Scope, write bool) *Report {
	r := &Report{Host: host.Name(), Scope: scope}
	if _, err := host.Entries(env, scope, Options{}); err != nil {
		r.Err = err
		return r
	}
	r.Receipt = Shown(env, receiptPath(env, host.Name(), scope))
	rec, err := loadReceipt(env, host.Name(), scope)
	if err != nil {
		r.Err = err
		return r
	}
	var keep []Owned
	var left []string
	var works []*fileWork
	newFiles := map[string]bool{}
	newDirs := map[string][]string{}
	for _, o := range rec.Entries {
		e := o.Entry
		er := EntryReport{Part: e.Part, File: Shown(env, e.File), Where: e.where()}
		w := workFor(works, e.File)
		if w == nil {
			files, err := group(env, scope, []Entry{e})
			if err != nil {
				er.Status, er.Detail = "left", err.Error()
				keep = append(keep, o)
				left = append(left, er.File+": "+er.Where+": the file does not parse")
				r.Entries = append(r.Entries, er)
				continue
			}
			w = files[0]
			w.entries = nil
			works = append(works, w)
		}
		if o.NewFile {
			newFiles[e.File] = true
			for _, d := range o.NewDirs {
				newDirs[e.File] = append(newDirs[e.File], fromReceipt(env, scope, d))
			}
		}
		state, got := w.doc.Find(e)
		switch state {
		case Same:
			if err := w.doc.Remove(e, o.Created); err != nil {
				er.Status, er.Detail = "left", "cannot remove it: "+err.Error()
				keep = append(keep, o)
				left = append(left, er.File+": "+er.Where+": "+err.Error())
				break
			}
			er.Status = "remove"
		case Different:
			er.Status, er.Detail, er.Found = "left", "changed since setup wrote it: setup leaves your edit", got
			keep = append(keep, o)
			left = append(left, er.File+": "+er.Where+": changed since setup wrote it")
		default:
			er.Status, er.Detail = "gone", "no longer there"
		}
		r.Entries = append(r.Entries, er)
	}
	for _, w := range works {
		nb := w.doc.Bytes()
		if bytes.Equal(nb, w.old) {
			continue
		}
		if newFiles[w.path] && (bytes.Equal(nb, []byte(emptyObject)) || len(bytes.TrimSpace(nb)) == 0) {
			// setup made the file, and nothing but what it wrote was
			// ever in it: it goes again.
			nb = nil
		}
		r.Changes = append(r.Changes, Change{File: w.shown, Diff: diffOf(w.shown, w.old, nb, true), Removed: nb == nil, path: w.path, scope: w.scope, old: w.old, new: nb})
	}
	if write && (len(r.Changes) > 0 || len(keep) != len(rec.Entries)) {
		if err := apply(r.Changes); err != nil {
			r.Err = err
			return r
		}
		r.Written = true
		for _, c := range r.Changes {
			if c.Removed {
				removeEmptyDirs(c.path, newDirs[c.path])
			}
		}
		rec.Entries = keep
		if err := rec.save(env); err != nil {
			r.Err = err
			return r
		}
	}
	if len(left) > 0 {
		r.Err = &askerr.Error{Code: CodePartial, Message: fmt.Sprintf("setup left %d of %s's entries in place", len(left), host.Name()),
			Detail: left, Try: []string{"agent-skills setup status --host " + host.Name(), "remove the entries named above yourself if you no longer want them"}}
	}
	return r
}

// workFor returns the file already read for path, or nil.
func workFor(works []*fileWork, path string) *fileWork {
	i := slices.IndexFunc(works, func(w *fileWork) bool { return w.path == path })
	if i < 0 {
		return nil
	}
	return works[i]
}

// sameAsWritten reports whether doc still holds the receipt's entry o
// exactly as setup wrote it.
func sameAsWritten(doc Document, o Owned) bool {
	st, _ := doc.Find(o.Entry)
	return st == Same
}

// mergeCreated keeps the created path of the first write, which covers
// the containers of a later one.
func mergeCreated(first, later []string) []string {
	if len(first) > 0 {
		return first
	}
	return later
}

// start begins a report on host in scope: the entries setup would write
// and the receipt of what it wrote; r.Err is set when either cannot be had.
func start(env Env, host Host, scope Scope, o Options) (r *Report, entries []Entry, rec *Receipt) {
	r = &Report{Host: host.Name(), Scope: scope, Notes: host.Notes(scope, o)}
	entries, err := host.Entries(env, scope, o)
	if err != nil {
		r.Err = err
		return r, nil, nil
	}
	r.Receipt = Shown(env, receiptPath(env, host.Name(), scope))
	if rec, err = loadReceipt(env, host.Name(), scope); err != nil {
		r.Err = err
	}
	return r, entries, rec
}

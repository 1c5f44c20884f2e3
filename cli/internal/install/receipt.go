package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// metaDir is the hidden folder inside every agent root that holds the
// receipts and the staging area. The agent-oracle run (Codex 0.169.0,
// Claude Code 2.1.197) showed that neither agent lists anything below
// <root>/.agent-skills/ as a skill, but that Claude Code lists every *.md
// file below .claude/commands/ as a command, hidden folders included: so
// nothing this package writes under metaDir ends in ".md", and nothing is
// written as metaDir/SKILL.md.
const metaDir = ".agent-skills"

// receiptSchema is the version of the receipt format.
const receiptSchema = 1

// receipt records one install of a package into one root: what it is,
// where it came from, and every file that was written.
type receipt struct {
	SchemaVersion int          `json:"schemaVersion"`
	Name          string       `json:"name"`
	Version       string       `json:"version"`
	Kind          format.Kind  `json:"kind"`
	Shape         agents.Shape `json:"shape"`
	Registry      string       `json:"registry,omitempty"`
	Resolved      string       `json:"resolved,omitempty"`
	Integrity     string       `json:"integrity,omitempty"`
	Role          resolve.Role `json:"role,omitempty"`
	// Source and Subpath record a package from a direct source, as
	// skills.lock does, so that the receipts and the lock agree on where
	// a package came from. Receipts written before they were recorded
	// lack them.
	Source  string `json:"source,omitempty"`
	Subpath string `json:"subpath,omitempty"`
	// Dependencies maps each dependency installed with the package to its
	// version then. Receipts written before it was recorded lack it (nil).
	Dependencies map[string]string `json:"dependencies"`
	Agents       []string          `json:"agents"`
	InstalledAt  string            `json:"installedAt,omitempty"`
	// Disabled records a package that no agent lists (SetDisabled): Files
	// then name its files as they are on disk, every SKILL.md (or the
	// file of a file-shaped package) ending in ".disabled". Absent from
	// receipts of enabled packages and of older versions.
	Disabled bool `json:"disabled,omitempty"`
	// Findings are what the content scan found in the package when it
	// was installed, accepted ones with who accepted them (Item.Findings).
	// Absent when it found nothing, and from receipts of older versions.
	Findings []Finding    `json:"findings,omitempty"`
	Files    []fileRecord `json:"files"`
}

// Finding is a content-scan finding as a receipt records it: enough to
// tell, at the next update, which findings of a new version are new (by
// Fingerprint, scan.Finding.Fingerprint) and who let a blocking one
// through. A receipt is read back as untrusted input: its findings only
// label what is shown, they never accept anything.
type Finding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	// Fingerprint is scan.Finding.Fingerprint: the rule, the file and the
	// excerpt, stable across edits elsewhere in the file.
	Fingerprint string `json:"fingerprint"`
	// AcceptedBy is, for a finding that blocks installing the package
	// and was accepted, who accepted it: "--allow-risk" or the policy.
	AcceptedBy string `json:"acceptedBy,omitempty"`
}

// fileRecord is one file a receipt tracks. For a directory-shaped package
// Path is relative to the package folder; for a file-shaped one it is the
// file's own name.
type fileRecord struct {
	Path   string `json:"path"`
	Digest string `json:"digest"`
	Mode   string `json:"mode"`
}

// modeString renders permission bits as a four-digit octal string; the
// two modes staging writes are constants, not a string per file.
func modeString(m fs.FileMode) string {
	switch m.Perm() {
	case 0o644:
		return "0644"
	case 0o755:
		return "0755"
	}
	return fmt.Sprintf("%04o", m.Perm())
}

// journal is the content of a pending receipt: the receipt the package
// will have once the transaction commits (nil for an uninstall), and, when
// the old version was renamed aside rather than exchanged, where it is.
type journal struct {
	// Dest is the package's folder or file, relative to the root.
	Dest    string   `json:"dest"`
	Receipt *receipt `json:"receipt,omitempty"`
	// Aside is the old version's temporary place, relative to the root;
	// recovery renames it back when the destination is missing.
	Aside string `json:"aside,omitempty"`
}

func receiptsDir(root string) string { return filepath.Join(root, metaDir, "receipts") }
func stagingDir(root string) string  { return filepath.Join(root, metaDir, "staging") }
func receiptPath(root, name string) string {
	return filepath.Join(receiptsDir(root), name+".json")
}
func pendingPath(root, name string) string { return receiptPath(root, name) + ".pending" }

// encodeReceipt renders r as indented JSON with a final newline.
func encodeReceipt(r *receipt) []byte {
	// A receipt holds only strings, ints and slices of them, which always
	// marshal.
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// decodeReceipt parses a receipt and checks that it describes name.
//
// A receipt is the first JSON value of data (json.Decoder.Decode): what
// follows it is not read. json.Unmarshal, which reads data in place where
// the decoder copies it into a buffer it grows (most of a receipt's
// decoding allocations), decodes every receipt that is one value alone as
// the decoder does; any other data, which Unmarshal refuses, is decoded
// again by the decoder, which gives what it always gave.
func decodeReceipt(data []byte, name string) (*receipt, error) {
	var r receipt
	if json.Unmarshal(data, &r) != nil {
		r = receipt{}
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&r); err != nil {
			return nil, err
		}
	}
	switch {
	case r.SchemaVersion != receiptSchema:
		return nil, fmt.Errorf("unsupported receipt schemaVersion %d", r.SchemaVersion)
	case r.Name != name:
		return nil, fmt.Errorf("receipt names %q, not %q", r.Name, name)
	case len(r.Files) == 0:
		return nil, errors.New("receipt lists no files")
	}
	for _, f := range r.Files {
		if !fs.ValidPath(f.Path) || f.Path == "." {
			return nil, fmt.Errorf("receipt lists an unsafe path %q", f.Path)
		}
	}
	return &r, nil
}

// readReceipt reads the receipt of name in root. It returns nil, nil when
// there is none, and a non-nil error when there is one that cannot be used.
func readReceipt(root, name string) (*receipt, []byte, error) {
	return readReceiptIn(nil, root, name)
}

// readReceiptIn is readReceipt through the view v (nil: the disk).
func readReceiptIn(v *metaView, root, name string) (*receipt, []byte, error) {
	data, err := v.read(root, name+".json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if r, ok := v.decoded(root, name+".json"); ok {
		return r, data, nil
	}
	r, err := decodeReceipt(data, name)
	if err == nil {
		v.decode(root, name+".json", r)
	}
	return r, data, err
}

// cloneReceipt copies r deeply enough that no caller's change to the
// copy (its slices and map included) reaches r.
func cloneReceipt(r *receipt) *receipt {
	c := *r
	c.Agents = slices.Clone(r.Agents)
	c.Files = slices.Clone(r.Files)
	c.Findings = slices.Clone(r.Findings)
	if r.Dependencies != nil {
		c.Dependencies = maps.Clone(r.Dependencies)
	}
	return &c
}

// readJournal reads the pending receipt of name in root, whose package
// sits at dest in a root of shape. It returns nil when there is none, an
// empty journal when it cannot be parsed (a pending receipt is written in
// place before its swap, so a torn one means nothing was swapped), and
// ASK_ROOT_UNSAFE when it names anything but what a transaction of name
// writes (checkJournal): recovery renames what a journal names, so a
// planted one must never be acted on.
func readJournal(v *metaView, root, name, dest string, shape agents.Shape) (*journal, error) {
	if v == nil {
		v = &metaView{} // a run journal is read through a view
	}
	data, err := v.read(root, name+".json.pending")
	var ie *askerr.Error
	if errors.As(err, &ie) {
		return nil, err
	}
	if err != nil {
		return nil, nil
	}
	var j journal
	if json.Unmarshal(data, &j) != nil {
		return &journal{}, nil
	}
	if err := checkJournalAt(&j, v.pendingSource(root, name), root, name, dest, shape); err != nil {
		return nil, err
	}
	if j.Receipt != nil {
		if _, err := decodeReceipt(encodeReceipt(j.Receipt), name); err != nil {
			j.Receipt = nil
		}
	}
	return &j, nil
}

// sameFiles reports whether two receipts track the same files with the
// same digests and modes.
func sameFiles(a, b []fileRecord) bool {
	return slices.Equal(a, b)
}

// sameMeta reports whether two receipts agree on everything but the time.
func sameMeta(a, b *receipt) bool {
	return a.Version == b.Version && a.Kind == b.Kind && a.Shape == b.Shape &&
		a.Registry == b.Registry && a.Source == b.Source && a.Subpath == b.Subpath && a.Resolved == b.Resolved &&
		format.SameIntegrity(a.Integrity, b.Integrity) && a.Role == b.Role &&
		slices.Equal(a.Agents, b.Agents) && a.Disabled == b.Disabled && (a.Dependencies == nil) == (b.Dependencies == nil) &&
		maps.Equal(a.Dependencies, b.Dependencies) && slices.Equal(a.Findings, b.Findings)
}

// receiptNames lists the names that have a receipt or a pending receipt
// in root, sorted.
func receiptNames(v *metaView, root string) []string {
	if v == nil {
		v = &metaView{}
	}
	ents, err := v.entries(root)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	if names, _, err := v.pending(root); err == nil {
		for _, n := range names {
			if n != "" && n[0] != '.' {
				seen[n] = true
			}
		}
	}
	for n := range ents {
		switch {
		case filepath.Ext(n) == ".json":
			n = n[:len(n)-len(".json")]
		case filepath.Ext(n) == ".pending" && filepath.Ext(n[:len(n)-len(".pending")]) == ".json":
			n = n[:len(n)-len(".json.pending")]
		default:
			continue
		}
		if n != "" && n[0] != '.' {
			seen[n] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// appendReceipt appends r as json.Marshal encodes it or, with indent, as
// json.MarshalIndent(r, "", "  ") does (encodeReceipt without its final
// newline): the same bytes, without reflection, so that a run can encode
// each receipt where it writes it (its run journal, then its receipt
// file) instead of keeping the bytes from one to the other.
func appendReceipt(b []byte, r *receipt, indent bool) []byte {
	e := jsonOut{b: b, indent: indent}
	e.open('{')
	e.key(1, "schemaVersion")
	e.b = strconv.AppendInt(e.b, int64(r.SchemaVersion), 10)
	e.str(1, "name", r.Name, false)
	e.str(1, "version", r.Version, false)
	e.str(1, "kind", string(r.Kind), false)
	e.str(1, "shape", string(r.Shape), false)
	e.str(1, "registry", r.Registry, true)
	e.str(1, "resolved", r.Resolved, true)
	e.str(1, "integrity", r.Integrity, true)
	e.str(1, "role", string(r.Role), true)
	e.str(1, "source", r.Source, true)
	e.str(1, "subpath", r.Subpath, true)
	e.key(1, "dependencies")
	if r.Dependencies == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.open('{')
		for _, k := range slices.Sorted(maps.Keys(r.Dependencies)) {
			e.str(2, k, r.Dependencies[k], false)
		}
		e.close(1, '}')
	}
	e.key(1, "agents")
	if r.Agents == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.open('[')
		for _, a := range r.Agents {
			e.elem(2)
			e.b = appendJSONString(e.b, a)
		}
		e.close(1, ']')
	}
	e.str(1, "installedAt", r.InstalledAt, true)
	if r.Disabled {
		e.key(1, "disabled")
		e.b = append(e.b, "true"...)
	}
	if len(r.Findings) > 0 {
		e.key(1, "findings")
		e.open('[')
		for _, f := range r.Findings {
			e.elem(2)
			e.open('{')
			e.str(3, "rule", f.Rule, false)
			e.str(3, "severity", f.Severity, false)
			e.str(3, "file", f.File, false)
			if f.Line != 0 {
				e.key(3, "line")
				e.b = strconv.AppendInt(e.b, int64(f.Line), 10)
			}
			e.str(3, "fingerprint", f.Fingerprint, false)
			e.str(3, "acceptedBy", f.AcceptedBy, true)
			e.close(2, '}')
		}
		e.close(1, ']')
	}
	e.key(1, "files")
	if r.Files == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.open('[')
		for _, f := range r.Files {
			e.elem(2)
			e.open('{')
			e.str(3, "path", f.Path, false)
			e.str(3, "digest", f.Digest, false)
			e.str(3, "mode", f.Mode, false)
			e.close(2, '}')
		}
		e.close(1, ']')
	}
	e.close(0, '}')
	return e.b
}

// jsonOut appends JSON as encoding/json writes it, compact or indented
// by two spaces: an object or array with no members is {} or [].
type jsonOut struct {
	b      []byte
	indent bool
	// empty is whether the object or array last opened has no member yet.
	empty bool
}

func (e *jsonOut) open(c byte) {
	e.b = append(e.b, c)
	e.empty = true
}

// elem begins a member (an element or a key) at depth.
func (e *jsonOut) elem(depth int) {
	if !e.empty {
		e.b = append(e.b, ',')
	}
	e.empty = false
	e.newline(depth)
}

func (e *jsonOut) close(depth int, c byte) {
	if !e.empty {
		e.newline(depth)
	}
	e.empty = false
	e.b = append(e.b, c)
}

func (e *jsonOut) newline(depth int) {
	if e.indent {
		e.b = append(e.b, '\n')
		for range depth {
			e.b = append(e.b, "  "...)
		}
	}
}

// key begins the member k of an object at depth.
func (e *jsonOut) key(depth int, k string) {
	e.elem(depth)
	e.b = appendJSONString(e.b, k)
	e.b = append(e.b, ':')
	if e.indent {
		e.b = append(e.b, ' ')
	}
}

// str appends the member k with the string v, unless omitEmpty and v is
// empty.
func (e *jsonOut) str(depth int, k, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	e.key(depth, k)
	e.b = appendJSONString(e.b, v)
}

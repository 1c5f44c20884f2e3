package scan

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
)

// Finding is one thing a rule saw in a package.
type Finding struct {
	// Rule is the rule's stable id, such as "hidden-bidi".
	Rule string `json:"rule"`
	// Severity is the rule's severity for this finding.
	Severity Severity `json:"severity"`
	// File is the package-relative, slash-separated path of the file.
	File string `json:"file"`
	// Line and Col are 1-based; Col counts Unicode code points. Both are 0
	// for a finding about the file as a whole (its name, its kind).
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
	// Message says what was found.
	Message string `json:"message"`
	// Excerpt is the text around the finding on its line, with hidden,
	// control and format characters written as <U+XXXX> and every secret
	// found in the file masked past its prefix (ghp_Zq7W********): safe to
	// print, store in a receipt or upload in SARIF.
	Excerpt string `json:"excerpt,omitempty"`
	// Fix says what the author should do.
	Fix string `json:"fix"`
}

// String formats the finding as "file:line:col: severity rule: message".
func (f Finding) String() string {
	loc := f.File
	if f.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col)
	}
	return fmt.Sprintf("%s: %s %s: %s", loc, f.Severity, f.Rule, f.Message)
}

// Fingerprint identifies the finding across versions of a package: the rule,
// the file and the excerpt, not the line, so that an edit elsewhere in the
// file keeps it. Receipts record accepted findings by it and SARIF carries it
// as a partial fingerprint.
func (f Finding) Fingerprint() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", f.Rule, f.File, f.Excerpt)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Report is what a scan found in one package.
type Report struct {
	// Findings, sorted by file, line, column and rule.
	Findings []Finding `json:"findings"`
	// Files and Bytes count what was read.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Omitted counts findings left out because one rule fired more than
	// Options.MaxPerRule times in one file.
	Omitted int `json:"omitted,omitempty"`
}

// Max returns the highest severity among the findings, and false when there
// are none.
func (r Report) Max() (Severity, bool) {
	if len(r.Findings) == 0 {
		return Info, false
	}
	m := Info
	for _, f := range r.Findings {
		m = max(m, f.Severity)
	}
	return m, true
}

// Counts returns how many findings there are at each severity, indexed by
// Severity.
func (r Report) Counts() [Critical + 1]int {
	var c [Critical + 1]int
	for _, f := range r.Findings {
		c[f.Severity]++
	}
	return c
}

// AtLeast returns the findings at or above s.
func (r Report) AtLeast(s Severity) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Severity >= s {
			out = append(out, f)
		}
	}
	return out
}

// Options bound a scan.
type Options struct {
	// MaxFileSize is the most bytes read from one file; the rest of a
	// larger file is not scanned. Zero means format.DefaultMaxFileSize.
	MaxFileSize int64
	// MaxPerRule is the most findings one rule reports in one file; the
	// others are counted in Report.Omitted. Zero means 20.
	MaxPerRule int
}

func (o Options) withDefaults() Options {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = format.DefaultMaxFileSize
	}
	if o.MaxPerRule <= 0 {
		o.MaxPerRule = 20
	}
	return o
}

// FS loads the package at the root of fsys (format.Load) and scans it. A
// package that does not load cleanly is still scanned: every file Load
// listed is read.
func FS(fsys fs.FS, opts Options) (Report, error) {
	pkg, _ := format.Load(fsys, format.LoadOptions{})
	if pkg == nil {
		return Report{}, errors.New("scan: package did not load")
	}
	return Package(pkg, opts)
}

// Package scans every file of a loaded package. The error is a file that
// could not be read; the report then holds what was read before it.
func Package(pkg *format.Package, opts Options) (Report, error) {
	opts = opts.withDefaults()
	s := &scanner{opts: opts, pkg: pkg, counts: map[countKey]int{}}
	for _, name := range pkg.Files {
		s.checkName(name)
		f, err := s.read(name)
		if err != nil {
			s.sort()
			return s.report, err
		}
		s.report.Files++
		s.report.Bytes += int64(len(f.data))
		s.files = append(s.files, f)
		if f.kind == kindBinary {
			continue
		}
		for _, c := range textChecks {
			c(s, f)
		}
	}
	for _, c := range packageChecks {
		c(s)
	}
	s.sort()
	return s.report, nil
}

// fileKind is what a file is to the rules.
type fileKind int8

const (
	kindText fileKind = iota
	kindMarkdown
	kindScript
	kindBinary
)

// file is one file being scanned.
type file struct {
	name  string
	data  []byte
	kind  fileKind
	exec  bool
	lines []int // offsets of line starts, built on first use
	// low is data with ASCII letters lowered, for keyword searches;
	// built on first use.
	low []byte
	// fences are the fenced code blocks of a Markdown file; built on
	// first use.
	fences []span
	fenced bool
	// hits is the keyword index; built on first use.
	hits    []hit
	indexed bool
	// secrets are the secrets found in the file, masked in every
	// excerpt.
	secrets []secretSpan
}

// pos returns the 1-based line and code-point column of byte offset off.
func (f *file) pos(off int) (line, col int) {
	if f.lines == nil {
		f.lines = append(f.lines, 0)
		for i, b := range f.data {
			if b == '\n' {
				f.lines = append(f.lines, i+1)
			}
		}
	}
	i, found := slices.BinarySearch(f.lines, off)
	if !found {
		i--
	}
	return i + 1, utf8.RuneCount(f.data[f.lines[i]:off]) + 1
}

// excerpt returns up to 60 code points either side of data[off:end] on its
// line, made safe to print, with every secret found in the file masked.
func (f *file) excerpt(off, end int) string {
	start := bytes.LastIndexByte(f.data[:off], '\n') + 1
	stop := len(f.data)
	if i := bytes.IndexByte(f.data[off:], '\n'); i >= 0 {
		stop = off + i
	}
	end = min(end, stop)
	const reach = 60
	prefix, suffix := "", ""
	if utf8.RuneCount(f.data[start:off]) > reach {
		start = off - len(tailRunes(f.data[start:off], reach))
		prefix = "…"
	}
	if utf8.RuneCount(f.data[off:end]) > 2*reach {
		stop = off + len(headRunes(f.data[off:end], 2*reach))
		suffix = "…"
	} else if utf8.RuneCount(f.data[end:stop]) > reach {
		stop = end + len(headRunes(f.data[end:stop], reach))
		suffix = "…"
	}
	return prefix + strings.TrimSpace(Visible(f.masked(start, stop))) + suffix
}

func headRunes(b []byte, n int) []byte {
	i := 0
	for ; n > 0 && i < len(b); n-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return b[:i]
}

func tailRunes(b []byte, n int) []byte {
	i := len(b)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRune(b[:i])
		i -= size
	}
	return b[i:]
}

type countKey struct{ rule, file string }

// scanner accumulates one package's report.
type scanner struct {
	opts   Options
	pkg    *format.Package
	files  []*file
	report Report
	counts map[countKey]int
}

// add records a finding of rule at data[off:end] of f with the rule's
// severity and fix; off < 0 is a finding about the whole file.
func (s *scanner) add(rule string, f *file, off, end int, message string) {
	s.addAs(rule, ruleSeverity(rule), f, off, end, message)
}

// addAs is add with a severity other than the rule's default.
func (s *scanner) addAs(rule string, sev Severity, f *file, off, end int, message string) {
	k := countKey{rule, f.name}
	s.counts[k]++
	if s.counts[k] > s.opts.MaxPerRule {
		s.report.Omitted++
		return
	}
	fd := Finding{Rule: rule, Severity: sev, File: f.name, Message: message, Fix: ruleFix(rule)}
	if off >= 0 {
		fd.Line, fd.Col = f.pos(off)
		fd.Excerpt = f.excerpt(off, end)
	}
	s.report.Findings = append(s.report.Findings, fd)
}

func (s *scanner) sort() {
	slices.SortStableFunc(s.report.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col), cmp.Compare(a.Rule, b.Rule))
	})
}

// read reads one file of the package up to the size limit and decides its
// kind.
func (s *scanner) read(name string) (*file, error) {
	fh, err := s.pkg.FS.Open(name)
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	defer fh.Close()
	info, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(fh, s.opts.MaxFileSize))
	if err != nil {
		return nil, fmt.Errorf("scan: %s: %w", name, err)
	}
	f := &file{name: name, data: data, exec: info.Mode().Perm()&0o111 != 0}
	f.kind = kindOf(name, data)
	return f, nil
}

// kindOf classifies a file by its content first (a NUL byte or invalid UTF-8
// in the first 8 KiB is a binary), then by its name or shebang.
func kindOf(name string, data []byte) fileKind {
	head := data[:min(len(data), 8<<10)]
	if bytes.IndexByte(head, 0) >= 0 || !validPrefix(head) {
		return kindBinary
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdx":
		return kindMarkdown
	case ".sh", ".bash", ".zsh", ".fish", ".ksh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".ps1", ".psm1", ".bat", ".cmd", ".lua", ".r":
		return kindScript
	}
	if bytes.HasPrefix(data, []byte("#!")) {
		return kindScript
	}
	return kindText
}

// validPrefix reports whether b is valid UTF-8, allowing a rune cut at its
// end.
func validPrefix(b []byte) bool {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:])
		}
		i += size
	}
	return true
}

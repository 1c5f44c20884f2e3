package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// JSON writes a large document in pieces of whole lines, and the bytes
// that reach the stream are the ones the backstop wrote for it in one
// piece: credentials masked, control characters escaped, colour or not.
func TestJSONInPieces(t *testing.T) {
	type row struct {
		Name string `json:"name"`
		URL  string `json:"url"`
		Text string `json:"text"`
	}
	var rows []row
	for i := range 3000 {
		rows = append(rows, row{Name: fmt.Sprintf("skill-%05d", i), URL: "https://user:secret@example.com/reg",
			Text: "tab\there, del\x7f, esc\x1b[31m, bidi \u202e, " + strings.Repeat("é", i%50)})
	}
	rows = append(rows, row{Name: "long", Text: strings.Repeat("x", 3*jsonPiece)})
	b, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 4*jsonPiece {
		t.Fatalf("the document is %d bytes, want several pieces", len(b))
	}
	for _, color := range []bool{false, true} {
		var want, got bytes.Buffer
		old := New(&want, &bytes.Buffer{}, Options{Color: color})
		fmt.Fprintf(old.Out, "%s\n", termtext.JSON(b)) // JSON as it was: one write
		old.Flush()
		p := New(&got, &bytes.Buffer{}, Options{Color: color})
		if err := p.JSON(rows); err != nil {
			t.Fatal(err)
		}
		p.Flush()
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("color %v: JSON in pieces differs from one write (%d bytes, want %d)", color, got.Len(), want.Len())
		}
		if strings.Contains(got.String(), "secret") || !strings.HasSuffix(got.String(), "]\n") {
			t.Errorf("color %v: JSON output leaks the password or lacks its end", color)
		}
	}
}

// writeIndented indents as json.MarshalIndent does — empty objects and
// arrays, nesting, punctuation and escapes inside strings, scalars,
// raw values with spaces — and cuts the document after a line only.
func TestWriteIndented(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	strs := []string{"", "a", `q"uo\"te`, `back\\slash\`, "{[,:]}", "new\nline", "tab\t", "é€𝄞", "\u2028", "<&>", "del\x7f", "bidi \u202e", "\", : [ ] { } \\\" ,"}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := r.IntN(9); {
		case depth > 4 || k < 3:
			return []any{strs[r.IntN(len(strs))], r.IntN(2000) - 1000, r.Float64(), true, false, nil}[r.IntN(6)]
		case k < 5:
			a := []any{}
			for range r.IntN(4) {
				a = append(a, value(depth+1))
			}
			return a
		case k < 8:
			m := map[string]any{}
			for range r.IntN(4) {
				m[strs[r.IntN(len(strs))]] = value(depth + 1)
			}
			return m
		default:
			return json.RawMessage(" [ 1 , {\"a\" :\t\"b c\" } , [ ] , { } ] ")
		}
	}
	cases := []any{map[string]any{}, []any{}, "x", 1, nil, map[string]any{"a": []any{}, "b": map[string]any{}, "c": []any{[]any{}, map[string]any{"d": []any{}}}}}
	for range 2000 {
		cases = append(cases, value(0))
	}
	for i, v := range cases {
		compact, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		indented, _ := json.MarshalIndent(v, "", "  ")
		var got bytes.Buffer
		if err := writeIndented(&got, compact); err != nil {
			t.Fatal(err)
		}
		if want := string(termtext.JSON(indented)) + "\n"; got.String() != want {
			t.Fatalf("case %d: writeIndented(%s) =\n%s\nwant\n%s", i, compact, got.String(), want)
		}
	}
	var w piecesWriter
	doc, _ := json.Marshal(map[string]any{"rows": make([]struct{ A, B string }, 5000)})
	if err := writeIndented(&w, doc); err != nil {
		t.Fatal(err)
	}
	if len(w.pieces) < 4 {
		t.Errorf("writeIndented wrote %d pieces, want the document in several", len(w.pieces))
	}
	for _, p := range w.pieces {
		if len(p) > jsonPiece+64 || p[len(p)-1] != '\n' {
			t.Errorf("a piece of %d bytes does not end a line, or is too long", len(p))
		}
	}
}

type piecesWriter struct{ pieces [][]byte }

func (w *piecesWriter) Write(p []byte) (int, error) {
	w.pieces = append(w.pieces, bytes.Clone(p))
	return len(p), nil
}

package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// writeLines cuts after a line only, and writes everything.
func TestWriteLines(t *testing.T) {
	var w piecesWriter
	doc := []byte(strings.Repeat("0123456789\n", 10000) + "end")
	if err := writeLines(&w, doc); err != nil {
		t.Fatal(err)
	}
	if got := bytes.Join(w.pieces, nil); string(got) != string(doc)+"\n" {
		t.Fatalf("writeLines wrote %d bytes, want %d", len(got), len(doc)+1)
	}
	if len(w.pieces) < 4 {
		t.Errorf("writeLines wrote %d pieces, want the document in several", len(w.pieces))
	}
	for _, p := range w.pieces[:len(w.pieces)-2] {
		if len(p) > jsonPiece+11 || p[len(p)-1] != '\n' {
			t.Errorf("a piece of %d bytes does not end a line, or is too long", len(p))
		}
	}
}

type piecesWriter struct{ pieces [][]byte }

func (w *piecesWriter) Write(p []byte) (int, error) {
	w.pieces = append(w.pieces, bytes.Clone(p))
	return len(p), nil
}

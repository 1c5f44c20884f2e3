package setup

import (
	"bytes"
	"encoding/json"
	"errors"
)

// fileFormat is a file setup owns whole: a JSON file (its content
// compared as JSON, so a host that reformats it changes nothing), or a
// text file compared byte for byte.
type fileFormat struct{ json bool }

// OwnedJSON returns the format of a JSON file setup owns whole.
func OwnedJSON() Format { return fileFormat{json: true} }

// OwnedText returns the format of a text file setup owns whole.
func OwnedText() Format { return fileFormat{} }

func (f fileFormat) Name() string {
	if f.json {
		return "file"
	}
	return "text"
}

func (f fileFormat) Open(file string, data []byte) (Document, error) {
	d := &fileDoc{json: f.json, data: data, exists: data != nil}
	if f.json && data != nil {
		if _, err := openJSON(file, data, false); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// fileDoc is a whole file.
type fileDoc struct {
	json   bool
	exists bool
	data   []byte
}

// content returns what e says the file holds.
func (d *fileDoc) content(e Entry) []byte {
	if d.json {
		var b bytes.Buffer
		if err := json.Indent(&b, compact(e.Value), "", "  "); err != nil {
			return nil
		}
		b.WriteByte('\n')
		return b.Bytes()
	}
	var s string
	_ = json.Unmarshal(e.Value, &s)
	return []byte(s)
}

func (d *fileDoc) Find(e Entry) (State, json.RawMessage) {
	if !d.exists {
		return Absent, nil
	}
	if d.json {
		doc, err := openJSON("", d.data, false)
		if err != nil {
			return Different, nil
		}
		got, err := canonical(doc.root)
		if err != nil {
			return Different, nil
		}
		if bytes.Equal(got, Canonical(e.Value)) {
			return Same, got
		}
		return Different, got
	}
	got, _ := json.Marshal(string(d.data))
	if bytes.Equal(d.data, d.content(e)) {
		return Same, got
	}
	return Different, got
}

func (d *fileDoc) Add(e Entry) ([]string, error) {
	if d.exists {
		return nil, errors.New("the file exists")
	}
	d.data, d.exists = d.content(e), true
	return nil, nil
}

func (d *fileDoc) Remove(Entry, []string) error {
	d.data, d.exists = nil, false
	return nil
}

func (d *fileDoc) Bytes() []byte {
	if !d.exists {
		return nil
	}
	return d.data
}

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadPlain(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.json")
	if err := os.WriteFile(plain, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 11)), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(plain, link); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		file   string
		follow bool
		data   string
		err    error
	}{
		{plain, false, "{}", nil},
		{filepath.Join(dir, "absent.json"), false, "", nil},
		{big, false, "", ErrTooLarge},
		{link, false, "", ErrNotPlain},
		{link, true, "{}", nil},
		{dir, true, "", ErrNotPlain},
	} {
		data, err := ReadPlain(tc.file, tc.follow, 10)
		if string(data) != tc.data || !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
			t.Errorf("ReadPlain(%s, follow %v) = %q, %v; want %q, %v", filepath.Base(tc.file), tc.follow, data, err, tc.data, tc.err)
		}
	}
}

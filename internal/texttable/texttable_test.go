package texttable

import (
	"errors"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	var b strings.Builder
	err := Write(&b, [][]string{
		{"name", "n", "≥ x", "note"},
		{"a", "10", "1", "first"},
		{"long name", "2", "300", "→ last"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "name        n  ≥ x  note\n" +
		"a          10    1  first\n" +
		"long name   2  300  → last\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteEmptyAndError(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, nil); err != nil || b.Len() != 0 {
		t.Errorf("empty: %q, %v", b.String(), err)
	}
	if err := Write(failingWriter{}, [][]string{{"a"}}); err == nil {
		t.Error("a failing writer gave no error")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

package atomicio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.csv")
	err := WriteFile(p, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("want error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("left %d entries behind", len(entries))
	}
	if err := WriteBytes(p, []byte("ok")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "ok" {
		t.Fatalf("got %q", b)
	}
}

func TestDir(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "out")
	err := Dir(p, func(tmp string) error {
		os.WriteFile(filepath.Join(tmp, "x"), []byte("1"), 0o644)
		return errors.New("fail")
	})
	if err == nil {
		t.Fatal("want error")
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Fatalf("left %d entries", len(entries))
	}
	if err := Dir(p, func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "x"), []byte("1"), 0o644) }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p, "x")); err != nil {
		t.Fatal(err)
	}
	if err := Dir(p, func(string) error { return nil }); err == nil {
		t.Fatal("want error for non-empty existing dir")
	}
}

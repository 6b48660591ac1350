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

func TestWriteDirReplace(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "out")
	write := func(content string) func(string) error {
		return func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "x"), []byte(content), 0o644) }
	}
	if err := WriteDir(p, DirOptions{}, write("old")); err != nil {
		t.Fatal(err)
	}
	refuse := errors.New("not mine")
	if err := WriteDir(p, DirOptions{Replace: func(string) error { return refuse }}, write("new")); !errors.Is(err, refuse) {
		t.Fatalf("refused replace: err = %v", err)
	}
	allow := DirOptions{Replace: func(string) error { return nil }}
	// A failing fill leaves the old directory intact.
	if err := WriteDir(p, allow, func(string) error { return errors.New("boom") }); err == nil {
		t.Fatal("want error")
	}
	if b, _ := os.ReadFile(filepath.Join(p, "x")); string(b) != "old" {
		t.Fatalf("after a failed replace x = %q", b)
	}
	if err := WriteDir(p, allow, write("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(p, "x")); string(b) != "new" {
		t.Fatalf("after replace x = %q", b)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Fatalf("left %d entries beside out (want only out)", len(entries))
	}
}

func TestWriteDirKeepOnAndParent(t *testing.T) {
	root := t.TempDir()
	stop := errors.New("interrupted")
	keep := DirOptions{KeepOn: func(err error) bool { return errors.Is(err, stop) }}
	p := filepath.Join(root, "runs", "a")
	err := WriteDir(p, keep, func(tmp string) error {
		os.WriteFile(filepath.Join(tmp, "checkpoint"), []byte("1"), 0o644)
		return stop
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(p, "checkpoint")); err != nil {
		t.Fatalf("kept directory missing: %v", err)
	}
	// Another error removes everything, including the parent made here.
	q := filepath.Join(root, "fresh", "b")
	if err := WriteDir(q, keep, func(string) error { return errors.New("bad") }); err == nil {
		t.Fatal("want error")
	}
	if _, err := os.Stat(filepath.Join(root, "fresh")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("created parent left behind: %v", err)
	}
}

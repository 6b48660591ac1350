package runfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHallOfEarlierRuns: hall_of_fame.csv files written by main 3f1d7e5
// (one- and two-tree) read, and written again give the same bytes.
func TestHallOfEarlierRuns(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "main-3f1d7e5", "*.hall_of_fame.csv"))
	if len(files) != 2 {
		t.Fatalf("hall files: %v", files)
	}
	for _, path := range files {
		h, err := ReadHall(path)
		if err != nil || h == nil || len(h.Rows) == 0 {
			t.Fatalf("%s: %v, %v", path, h, err)
		}
		if two := strings.Contains(path, "smoke2"); h.Routing != two || (h.Column("routing") >= 0) != two {
			t.Errorf("%s: routing %v", path, h.Routing)
		}
		out := filepath.Join(t.TempDir(), HallFile)
		if err := WriteHall(out, h); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(path)
		b, _ := os.ReadFile(out)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: written again differs", path)
		}
	}
}

func TestHallErrors(t *testing.T) {
	dir := t.TempDir()
	if h, err := ReadHall(filepath.Join(dir, "none.csv")); h != nil || err != nil {
		t.Errorf("absent file: %v, %v", h, err)
	}
	for _, c := range []struct{ text, says string }{
		{"", "no header"},
		{"rank,score\n1,2\n", "header"},
		{strings.Join(HallColumns(false), ",") + "\n1,2\n", "wrong number of fields"},
	} {
		p := filepath.Join(dir, "h.csv")
		os.WriteFile(p, []byte(c.text), 0o644)
		if _, err := ReadHall(p); err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: %v, want %q naming the file", c.text, err, c.says)
		}
	}
	if err := WriteHall(filepath.Join(dir, "w.csv"), &Hall{Rows: [][]string{{"1"}}}); err == nil || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("short row written: %v", err)
	}
}

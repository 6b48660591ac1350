package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
)

// Redraw rewrites an eval directory's summary from its tables, prints one
// line per directory, and checks its arguments before reading anything.
func TestRedraw(t *testing.T) {
	dir := smallEval(t)
	summary := filepath.Join(dir, "summary.md")
	before, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(summary); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{dir}, Formats: "svg", Reference: "tiresias"}, &w); err != nil {
		t.Fatal(err)
	}
	if after, err := os.ReadFile(summary); err != nil || !bytes.Equal(after, before) {
		t.Errorf("summary.md redrawn differs from eval's (%v)", err)
	}
	if line := w.String(); !strings.HasPrefix(line, dir+": ") || !strings.Contains(line, "summary.md") || strings.Count(line, "\n") != 1 {
		t.Errorf("printed %q", line)
	}
	for _, tc := range []struct {
		o    experiment.RedrawOptions
		want string
	}{
		{experiment.RedrawOptions{Formats: "svg"}, "report: give at least one directory (see evogp report --help)"},
		{experiment.RedrawOptions{Dirs: []string{dir}, Formats: "gif"}, `format "gif"`},
		{experiment.RedrawOptions{Dirs: []string{dir}, Formats: "svg", Reference: "nobody", ReferenceGiven: true}, "nobody"},
	} {
		w.Reset()
		err := experiment.Redraw(context.Background(), tc.o, &w)
		if err == nil || !strings.Contains(err.Error(), tc.want) || w.Len() > 0 {
			t.Errorf("%+v: error %v, printed %q; want an error containing %q", tc.o, err, w.String(), tc.want)
		}
	}
}

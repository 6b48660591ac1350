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

// Export of a run directory and of its best.json, plain, simplified and
// on the domain, to w or to a file.
func TestExportFormats(t *testing.T) {
	run := t.TempDir()
	best := filepath.Join(run, "best.json")
	if err := os.WriteFile(best, []byte(`{"infix": "g*d*1 + q % (q - q)"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		o    experiment.ExportOptions
		want string
	}{
		{experiment.ExportOptions{Args: []string{run}, Format: "infix"}, "g * d * 1 + q % (q - q)\n"},
		{experiment.ExportOptions{Args: []string{best}, Format: "prefix"}, "(+ (* (* g d) 1) (% q (- q q)))\n"},
		{experiment.ExportOptions{Args: []string{run}, Format: "infix", Simplify: true}, "d * g + q % (q - q)\n"}, // the exact simplifier keeps q % (q - q),
		{experiment.ExportOptions{Args: []string{run}, Format: "infix", Domain: true}, "q + d * g\n"},             // q % 0 = q (protected division),
	} {
		var w bytes.Buffer
		if err := experiment.Export(context.Background(), tc.o, &w); err != nil {
			t.Fatalf("%+v: %v", tc.o, err)
		}
		if w.String() != tc.want {
			t.Errorf("%+v: %q, want %q", tc.o, w.String(), tc.want)
		}
	}
	out := filepath.Join(t.TempDir(), "f.txt")
	var w bytes.Buffer
	if err := experiment.Export(context.Background(), experiment.ExportOptions{Args: []string{run}, Format: "infix", Out: out}, &w); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "g * d * 1 + q % (q - q)\n" || w.Len() != 0 {
		t.Errorf("--out: %q, %v; printed %q", b, err, w.String())
	}
	for _, args := range [][]string{nil, {run, best}} {
		err := experiment.Export(context.Background(), experiment.ExportOptions{Args: args, Format: "infix"}, &w)
		if err == nil || err.Error() != "export: give one RUN_DIR or best.json (see evogp export --help)" {
			t.Errorf("%q: %v", args, err)
		}
	}
	if err := experiment.Export(context.Background(), experiment.ExportOptions{Args: []string{run}, Format: "nope"}, &w); err == nil {
		t.Error("unknown format: no error")
	}
}

// TestExportPairOnDomain: --domain on a two-tree run applies the domain to
// both trees: a division the simulator's inputs prove safe prints as true
// division (LaTeX \frac) in the routing tree and in the ranking tree, while
// without --domain both keep the protected operator.
func TestExportPairOnDomain(t *testing.T) {
	run := t.TempDir()
	best := `{"learn": ["routing", "ranking"], "infix": "d % (g + 1)", "routing_infix": "W % (C + 1)",
	  "scope": "all", "candidate": "rule+formula+bestfit", "routing_terminals": ["W", "C"]}`
	if err := os.WriteFile(filepath.Join(run, "best.json"), []byte(best), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, domain := range []bool{false, true} {
		var w bytes.Buffer
		if err := experiment.Export(context.Background(), experiment.ExportOptions{Args: []string{run}, Format: "latex", Domain: domain}, &w); err != nil {
			t.Fatalf("domain %v: %v", domain, err)
		}
		got := w.String()
		if n := strings.Count(got, `\frac`); domain != (n == 2) {
			t.Errorf("domain %v: %d \\frac in %q, want 2 with the domain and none without", domain, n, got)
		}
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/runfile"
)

// frontRun learns a small front (smoke data, nsga2 on avg_jct and max_qt)
// and returns its directory and the printed summary.
func frontRun(t *testing.T) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "front")
	out, _, err := runApp(t, "learn", "--config", "smoke", "--out", dir, "--quiet", "objective.kind=single",
		"gp.selection=nsga2", "gp.objectives=[avg_jct,max_qt]", "gp.generations=4", "gp.population=16")
	if err != nil {
		t.Fatal(err)
	}
	return dir, out
}

func TestLearnFrontSummaryAndExportOmega(t *testing.T) {
	dir, out := frontRun(t)
	var best runfile.Best
	b, err := os.ReadFile(filepath.Join(dir, "best.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &best); err != nil {
		t.Fatal(err)
	}
	f := best.Front
	if f == nil {
		t.Fatal("no front in best.json")
	}
	// The summary prints the front table: every member with its formula.
	if !strings.Contains(out, "front of ") {
		t.Errorf("the summary has no front table:\n%s", out)
	}
	// Every member is reduced (issue 40): the table shows its reduced
	// formula.
	for _, m := range f.Members {
		if m.Reduced == "" || !strings.Contains(out, m.Label) || !strings.Contains(out, m.Reduced) {
			t.Errorf("the summary lacks %s (reduced %q):\n%s", m.Label, m.Reduced, out)
		}
	}
	// --omega prints the member a brute-force scan picks.
	for _, w := range []float64{0, 0.3, 0.5, 0.97, 1} {
		bi := 0
		for i, m := range f.Members {
			if w*m.Validation[0]+(1-w)*m.Validation[1] < w*f.Members[bi].Validation[0]+(1-w)*f.Members[bi].Validation[1] {
				bi = i
			}
		}
		// By default the member's reduced tree (in the simulator-domain
		// notation), with --evolved its evolved one.
		got, _, err := runApp(t, "export", dir, "--omega", strconvF(w))
		if err != nil {
			t.Fatal(err)
		}
		want, err := expr.FormatOn(expr.MustParse(f.Members[bi].ReducedInfix), "infix", expr.DefaultDomain())
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(got) != want {
			t.Errorf("--omega %v printed %q, want %s's reduced %q", w, got, f.Members[bi].Label, want)
		}
		evolved, _, err := runApp(t, "export", dir, "--omega", strconvF(w), "--evolved")
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(evolved) != f.Members[bi].Infix {
			t.Errorf("--omega %v --evolved printed %q, want %s's %q", w, evolved, f.Members[bi].Label, f.Members[bi].Infix)
		}
	}
	if _, _, err := runApp(t, "export", dir, "--omega", "1.5"); err == nil || !strings.Contains(err.Error(), "must be in [0, 1]") {
		t.Errorf("--omega 1.5: %v", err)
	}
	// A scalar run has no front.
	tree, _ := json.Marshal(expr.MustParse("g * d"))
	scalar := writeBest(t, `{"infix": "g * d", "tree": `+string(tree)+`}`)
	if _, _, err := runApp(t, "export", scalar, "--omega", "0.3"); err == nil || !strings.Contains(err.Error(), "has no front") {
		t.Errorf("--omega on a run without a front: %v", err)
	}
}

func strconvF(w float64) string {
	b, _ := json.Marshal(w)
	return string(b)
}

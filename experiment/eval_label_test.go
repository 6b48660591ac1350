package experiment_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/reports"
)

// eval runs a composed scheduler under a label (srtf=mct+srtf+bestfit) and
// prints the summary table to the terminal before the list of files; the
// table's rows are the labels, and the labelled scheduler scores exactly
// as the same scheduler under its own name. (Moved from cmd/evogp.)
func TestEvalLabelledSchedulerAndTerminalSummary(t *testing.T) {
	ds := genData(t, "smoke", 2)
	out := filepath.Join(t.TempDir(), "eval")
	stdout, err := runEvalLocal(t, ds, out, "tiresias,srtf=mct+srtf+bestfit,mct+srtf+bestfit", "")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[0], "scheduler") || !strings.Contains(lines[0], "objective") {
		t.Fatalf("no summary table first:\n%s", stdout)
	}
	// On this data srtf ranks as tiresias does: the three labels are one
	// row, "tiresias = srtf = mct+srtf+bestfit", and lines below the table
	// say why (issue 44: fold identical rows and say why).
	if !strings.HasPrefix(lines[1], "tiresias = srtf = mct+srtf+bestfit ") {
		t.Errorf("row 1 = %q, want the folded row of the three labels", lines[1])
	}
	if !strings.Contains(stdout, "one row for two schedulers: mct+srtf+bestfit = tiresias, the normaliser: identical results on every instance") {
		t.Errorf("no reason for the fold:\n%s", stdout)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "wrote "+out) {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
	rows, err := reports.ReadResults(filepath.Join(out, "results.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	byLabel := map[string][]float64{}
	for _, r := range rows {
		byLabel[r.Scheduler] = append(byLabel[r.Scheduler], r.Objective)
	}
	a, b := byLabel["srtf"], byLabel["mct+srtf+bestfit"]
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("rows: %v", byLabel)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("instance %d: srtf %v ≠ mct+srtf+bestfit %v", i, a[i], b[i])
		}
	}
	// The folded row is that of each of its schedulers.
	if !slices.Equal(a, byLabel["tiresias"]) {
		t.Errorf("srtf %v, tiresias %v: folded though different", a, byLabel["tiresias"])
	}
}

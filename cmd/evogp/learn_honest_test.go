package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/policies"
)

// evogp learn ends with the verdict against the best baseline and the
// held-out test table listing every baseline, the constant and SRSF; the
// same table is in best.json.
func TestLearnPrintsTestTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, err := runApp(t, "learn", "--config", "smoke", "--quiet", "--out", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	best, err := learn.ReadBest(filepath.Join(dir, learn.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"vs best baseline " + best.BestBaseline, "test score: learned", "test split: 3 instances generated from seed 1",
		"Wilcoxon p", learn.RowLearned, learn.RowConstant, learn.RowSRSF}
	want = append(want, policies.Baselines()...)
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	if best.Test == nil || len(best.Test.Rows) != len(policies.Baselines())+3 {
		t.Errorf("best.json test table: %+v", best.Test)
	}
	if strings.Contains(stdout, "better than SRSF") {
		t.Errorf("the headline still compares with SRSF:\n%s", stdout)
	}
}

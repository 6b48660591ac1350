package experiment

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/policies"
)

// RunLearnCommand (evogp learn) ends with the verdict against the best baseline and the
// held-out test table listing every baseline, the constant and SRSF; the
// same table is in best.json.
func TestLearnPrintsTestTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var out, errw strings.Builder
	if err := RunLearnCommand(context.Background(), LearnCommand{Config: "smoke", Out: dir, Progress: progress.Options{Quiet: true}}, &out, &errw); err != nil {
		t.Fatalf("%v\n%s", err, errw.String())
	}
	stdout := out.String()
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

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
)

// eval names its best baseline on data other than what it reports: the
// learner run's validation choice from best.json, or --best-baseline,
// and otherwise says that it chose on the evaluated data itself. A
// redraw by report keeps the choice. gp = g*d ranks like SRSF, so its
// rows fold into tiresias's with the reason given.
func TestEvalBestBaselineBasis(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data") // quick: the schedulers differ
	if _, _, err := runApp(t, "data", "gen", "--config", "quick", "--instances", "2", "--seed", "3", "--out", data); err != nil {
		t.Fatal(err)
	}
	run := writeBest(t, `{"infix": "g * d", "best_baseline": "spark"}`)
	plain := writeBest(t, `{"infix": "g * d"}`)
	eval := func(extra ...string) (string, string, experiment.EvalManifest) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "e")
		args := append([]string{"eval", "--dataset", data, "--quiet", "--format", "svg", "--out", out}, extra...)
		stdout, _, err := runApp(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		md, err := os.ReadFile(filepath.Join(out, "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		var man experiment.EvalManifest
		mb, _ := os.ReadFile(filepath.Join(out, experiment.MarkerFile))
		if err := json.Unmarshal(mb, &man); err != nil {
			t.Fatal(err)
		}
		if _, _, err := runApp(t, "report", out); err != nil {
			t.Fatal(err)
		}
		md2, _ := os.ReadFile(filepath.Join(out, "summary.md"))
		if string(md2) != string(md) {
			t.Errorf("report changed summary.md:\n%s\nvs\n%s", md, md2)
		}
		return stdout, string(md), man
	}
	stdout, md, man := eval("--schedulers", "tiresias,spark,liquid,gp="+run)
	wantBasis := "on the validation set of the learner run " + run + " (best.json), not on this data"
	if man.BestBaseline != "spark" || man.BestBaselineBasis != wantBasis {
		t.Fatalf("manifest best baseline %q basis %q", man.BestBaseline, man.BestBaselineBasis)
	}
	if !strings.Contains(md, "Best baseline: spark, chosen "+wantBasis+".") || !strings.Contains(stdout, "best baseline spark, chosen "+wantBasis) {
		t.Errorf("summary.md or stdout lacks the basis:\n%s\n%s", md, stdout)
	}
	if !strings.Contains(md, "One row for two schedulers: gp = tiresias, the normaliser: identical results on every instance.") ||
		!strings.Contains(stdout, "tiresias = gp") || strings.Contains(md, "(n=0)") {
		t.Errorf("gp = tiresias not folded:\n%s\n%s", md, stdout)
	}
	// Two instances: never a p-value.
	if !strings.Contains(md, "n too small for a test") || strings.Contains(md, "(exact)") {
		t.Errorf("a p-value for 2 instances:\n%s", md)
	}

	_, md, man = eval("--schedulers", "tiresias,spark,liquid,gp="+plain)
	if man.BestBaseline != "" || !strings.Contains(md, "no other data was given to choose it on") {
		t.Errorf("without validation data: manifest %q, summary:\n%s", man.BestBaseline, md)
	}
	_, md, man = eval("--schedulers", "tiresias,spark,liquid,gp="+run, "--best-baseline", "liquid")
	if man.BestBaseline != "liquid" || !strings.Contains(md, "Best baseline: liquid, chosen by the user (--best-baseline).") {
		t.Errorf("--best-baseline: manifest %q, summary:\n%s", man.BestBaseline, md)
	}
	if _, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", filepath.Join(t.TempDir(), "x"),
		"--schedulers", "tiresias,spark", "--best-baseline", "lyra"); err == nil || !strings.Contains(err.Error(), `"lyra"`) {
		t.Fatalf("unknown --best-baseline: %v", err)
	}
}

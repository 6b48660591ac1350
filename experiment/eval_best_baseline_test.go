package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/runfile"
)

// runEvalLocal runs RunEval (evogp eval) here, quietly, in svg, with the
// default policy builder and the best baseline given (none: ""); it
// returns what it printed.
func runEvalLocal(t *testing.T, data, out, schedulers, bestBaseline string) (string, error) {
	t.Helper()
	return runEvalFigures(t, data, out, schedulers, experiment.FigureOptions{BestBaseline: bestBaseline})
}

// runEvalFigures is runEvalLocal with the figure options fo.
func runEvalFigures(t *testing.T, data, out, schedulers string, fo experiment.FigureOptions) (string, error) {
	t.Helper()
	o := evalCommand(data, out, schedulers)
	o.Settings.Figures = fo
	var w bytes.Buffer
	err := experiment.RunEval(context.Background(), o, &w)
	return w.String(), err
}

// evalCommand is evogp eval --dataset data --out out --schedulers
// schedulers --quiet --format svg, run here.
func evalCommand(data, out, schedulers string) experiment.EvalCommand {
	return experiment.EvalCommand{
		Settings: experiment.EvalSettings{Dataset: data, Sim: experiment.DefaultSimSettings(), Out: out, TimeUnit: "hours",
			Progress: progress.Options{Quiet: true}},
		Formats: "svg", Schedulers: schedulers, EstimatesSource: "none",
		Builder:  func() (experiment.PolicyBuilder, error) { return experiment.DefaultPolicyBuilder(false), nil },
		Launcher: func() (string, bool, error) { return experiment.LauncherLocal, true, nil },
	}
}

// genData generates n instances of the embedded config into a new
// dataset directory (evogp data gen --config config --instances n
// --seed 3) and returns it.
func genData(t *testing.T, config string, n int) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "data")
	if err := experiment.RunDataGenCommand(context.Background(), experiment.DataGenCommand{Config: config, Instances: n, InstancesGiven: true,
		Seed: 3, SeedGiven: true, Out: data, Split: "train", Format: "parquet"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	return data
}

// writeRun writes a best.json with the given content into a new run
// directory and returns the directory.
func writeRun(t *testing.T, content string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, runfile.BestFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// eval names its best baseline on data other than what it reports: the
// learner run's validation choice from best.json, or the one given
// (--best-baseline), and otherwise says that it chose on the evaluated
// data itself. The manifest records the choice and a redraw (evogp
// report) keeps it. gp = g*d ranks like SRSF, so its rows fold into
// tiresias's with the reason given. (Moved from cmd/evogp: it tests
// eval's behaviour, not the flag mapping.)
func TestEvalBestBaselineBasis(t *testing.T) {
	data := genData(t, "quick", 2) // quick: the schedulers differ
	run := writeRun(t, `{"infix": "g * d", "best_baseline": "spark"}`)
	plain := writeRun(t, `{"infix": "g * d"}`)
	eval := func(schedulers, best string) (string, string, *runfile.EvalManifest) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "e")
		stdout, err := runEvalLocal(t, data, out, schedulers, best)
		if err != nil {
			t.Fatal(err)
		}
		md, err := os.ReadFile(filepath.Join(out, "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		man, err := runfile.ReadManifest(out)
		if err != nil || man.Eval == nil {
			t.Fatalf("manifest %+v: %v", man, err)
		}
		if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{out}, Formats: "svg"}, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		md2, _ := os.ReadFile(filepath.Join(out, "summary.md"))
		if string(md2) != string(md) {
			t.Errorf("report changed summary.md:\n%s\nvs\n%s", md, md2)
		}
		return stdout, string(md), man.Eval
	}
	stdout, md, man := eval("tiresias,spark,liquid,gp="+run, "")
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

	_, md, man = eval("tiresias,spark,liquid,gp="+plain, "")
	if man.BestBaseline != "" || !strings.Contains(md, "no other data was given to choose it on") {
		t.Errorf("without validation data: manifest %q, summary:\n%s", man.BestBaseline, md)
	}
	_, md, man = eval("tiresias,spark,liquid,gp="+run, "liquid")
	if man.BestBaseline != "liquid" || !strings.Contains(md, "Best baseline: liquid, chosen by the user (--best-baseline).") {
		t.Errorf("--best-baseline: manifest %q, summary:\n%s", man.BestBaseline, md)
	}
	if _, err := runEvalLocal(t, data, filepath.Join(t.TempDir(), "x"), "tiresias,spark", "lyra"); err == nil || !strings.Contains(err.Error(), `"lyra"`) {
		t.Fatalf("unknown --best-baseline: %v", err)
	}
}

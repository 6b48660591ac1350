package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// frontRun learns a small front (evogp learn --config smoke
// objective.kind=single gp.selection=nsga2 gp.objectives=[avg_jct,max_qt]
// gp.generations=4 gp.population=16) and returns its directory and the
// printed summary.
func frontRun(t *testing.T) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "front")
	var w bytes.Buffer
	err := experiment.RunLearnCommand(context.Background(), experiment.LearnCommand{Config: "smoke", Out: dir, Progress: progress.Options{Quiet: true},
		Overrides: []string{"objective.kind=single", "gp.selection=nsga2", "gp.objectives=[avg_jct,max_qt]", "gp.generations=4", "gp.population=16"}},
		&w, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, w.String()
}

// runEvalSingle runs eval under the single objective (--objective single).
func runEvalSingle(t *testing.T, data, out, schedulers string) (string, error) {
	t.Helper()
	o := evalCommand(data, out, schedulers)
	sim, err := experiment.SimSettingsOverridden(configs.Default(), []string{"objective.kind=single"})
	if err != nil {
		t.Fatal(err)
	}
	o.Settings.Sim = sim
	var w bytes.Buffer
	err = experiment.RunEval(context.Background(), o, &w)
	return w.String(), err
}

// omegaBody is the table of an ω table text: from its column header on.
func omegaBody(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, "ω     member")
	if i < 0 {
		t.Fatalf("no ω table in:\n%s", text)
	}
	body := text[i:]
	if j := strings.Index(body, "\n\n"); j >= 0 {
		body = body[:j+1]
	}
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "ω") || strings.HasPrefix(l, "0.") || strings.HasPrefix(l, "1.") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// A front run prints its ω table on the test split; evaluating the front
// on that same split with every baseline gives the same table (members
// and baselines picked on the run's validation data, scored on the
// eval's instances), printed and written as omega_LABEL.txt. (Moved from
// cmd/evogp.)
func TestFrontOmegaTableLearnAndEvalAgree(t *testing.T) {
	dir, out := frontRun(t)
	if !strings.Contains(out, "ω table on 3 instances generated from seed") {
		t.Fatalf("the learn summary has no ω table:\n%s", out)
	}
	learnTable, err := os.ReadFile(filepath.Join(dir, "omega.txt"))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "test")
	if err := experiment.RunDataGenCommand(context.Background(), experiment.DataGenCommand{Config: "smoke", Split: "test", Out: data, Format: "parquet"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	ev := filepath.Join(t.TempDir(), "eval")
	evalOut, err := runEvalSingle(t, data, ev, "spark,liquid,tiresias,lyra,front="+dir)
	if err != nil {
		t.Fatal(err)
	}
	evalTable, err := os.ReadFile(filepath.Join(ev, "omega_front.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(evalOut, string(evalTable)) {
		t.Errorf("eval did not print omega_front.txt:\n%s", evalOut)
	}
	if !strings.Contains(string(evalTable), "baselines: srsf, spark, liquid, tiresias, lyra") {
		t.Errorf("the eval's table does not say which baselines it picked among:\n%s", evalTable)
	}
	if a, b := omegaBody(t, string(learnTable)), omegaBody(t, string(evalTable)); a != b || strings.Count(a, "\n") != 5 {
		t.Errorf("learn's ω table:\n%s\neval's on the same split:\n%s", a, b)
	}
}

// eval front=RUN evaluates every member under front-1.. and draws the
// test-set trade-off with every baseline and every member; report redraws
// it byte for byte. (Moved from cmd/evogp.)
func TestEvalFrontDrawsEveryMemberAndBaseline(t *testing.T) {
	dir, _ := frontRun(t)
	best, err := runfile.ReadBest(runfile.FindBest(dir))
	if err != nil {
		t.Fatal(err)
	}
	data := genData(t, "smoke", 2)
	out := filepath.Join(t.TempDir(), "eval")
	if _, err := runEvalSingle(t, data, out, "spark,tiresias,lyra,front="+dir); err != nil {
		t.Fatal(err)
	}
	res, err := reports.ReadResults(filepath.Join(out, "results.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, r := range res {
		have[r.Scheduler] = true
	}
	svg, err := os.ReadFile(filepath.Join(out, "tradeoff_front.svg"))
	if err != nil {
		t.Fatal(err)
	}
	labels := []string{"spark", "tiresias", "lyra"}
	for k := range best.Front.Members {
		labels = append(labels, "front-"+strconv.Itoa(k+1))
	}
	for _, l := range labels {
		if !have[l] {
			t.Errorf("results.parquet has no scheduler %s", l)
		}
		if !strings.Contains(string(svg), ">"+l+"<") && !strings.Contains(string(svg), ">"+l+" (ω ") {
			t.Errorf("the trade-off plot does not label %s", l)
		}
	}
	// Each ω of the ω table's grid names the member picked for it on
	// validation (issue 42): the member's label lists its ω.
	picked := map[int][]string{}
	for _, w := range []float64{0, 0.25, 0.5, 0.75, 1} {
		i, err := best.Front.PickOmega(w)
		if err != nil {
			t.Fatal(err)
		}
		picked[i] = append(picked[i], strconv.FormatFloat(w, 'g', -1, 64))
	}
	for i, ws := range picked {
		if want := ">front-" + strconv.Itoa(i+1) + " (ω " + strings.Join(ws, ", ") + ")<"; !strings.Contains(string(svg), want) {
			t.Errorf("the trade-off plot lacks the pick label %q", want)
		}
	}
	if have["front"] {
		t.Error("the front entry was evaluated as one scheduler")
	}
	// evogp report redraws the same figure (the fronts come back from
	// the manifest).
	if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{out}, Formats: "svg"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	again, err := os.ReadFile(filepath.Join(out, "tradeoff_front.svg"))
	if err != nil || string(again) != string(svg) {
		t.Errorf("evogp report drew another trade-off plot (%v)", err)
	}
}

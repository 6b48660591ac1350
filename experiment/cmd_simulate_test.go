package experiment_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/simcore"
)

// simulateDataset writes twoJobs and a copy named "other" as a dataset.
func simulateDataset(t *testing.T) string {
	t.Helper()
	other := twoJobs()
	other.Name = "other"
	dir := filepath.Join(t.TempDir(), "data")
	if err := datasets.Write(dir, &datasets.Dataset{Instances: []simcore.Instance{twoJobs(), other}}, datasets.FormatCSV); err != nil {
		t.Fatal(err)
	}
	return dir
}

// RunSimulate on the two-job instance: FIFO runs the 1 h job first (JCTs
// 1 h and 1.5 h, mean 1.25 h), the formula g*d the 0.5 h job first (mean
// 1 h). Prepare sees only the selected instances, and the files named are
// written.
func TestRunSimulateHandCase(t *testing.T) {
	data := simulateDataset(t)
	tmp := t.TempDir()
	for _, tc := range []struct {
		scheduler, priority string
		want                float64
	}{{"mct+fifo+bestfit", "", 1.25}, {"mct+formula+bestfit", "g*d", 1}} {
		var prepared []string
		var out bytes.Buffer
		o := experiment.SimulateCommand{Dataset: data, Instances: []string{"two-jobs"},
			Builder: experiment.DefaultPolicyBuilder(false), Scheduler: tc.scheduler, Priority: tc.priority,
			Prepare: func(insts []simcore.Instance) error {
				for _, in := range insts {
					prepared = append(prepared, in.Name)
				}
				return nil
			},
			Clock: "engine", Sim: experiment.DefaultSimSettings(), JSON: true,
			JobsOut: filepath.Join(tmp, tc.scheduler+"-jobs.csv"), SummaryOut: filepath.Join(tmp, tc.scheduler+"-summary.csv"),
			Progress: progress.Options{Quiet: true}}
		if err := experiment.RunSimulate(context.Background(), o, &out); err != nil {
			t.Fatal(err)
		}
		var row map[string]any
		if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &row); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if got, _ := row["avg_jct"].(float64); got != tc.want || row["instance"] != "two-jobs" {
			t.Errorf("%s: %s, want avg_jct %v on two-jobs only", tc.scheduler, out.String(), tc.want)
		}
		if strings.Join(prepared, ",") != "two-jobs" {
			t.Errorf("Prepare saw %q, want the selected instance only", prepared)
		}
		for _, f := range []string{o.JobsOut, o.SummaryOut} {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}

// Every error of RunSimulate's own steps, and nothing printed with one.
func TestRunSimulateErrors(t *testing.T) {
	data := simulateDataset(t)
	base := experiment.SimulateCommand{Dataset: data, Builder: experiment.DefaultPolicyBuilder(false), Scheduler: "mct+fifo+bestfit",
		Clock: "engine", Sim: experiment.DefaultSimSettings(), Progress: progress.Options{Quiet: true}}
	for _, tc := range []struct {
		edit func(*experiment.SimulateCommand)
		want string
	}{
		{func(o *experiment.SimulateCommand) { o.Clock = "float" }, `--clock "float": want engine or hydra-float`},
		{func(o *experiment.SimulateCommand) { o.Clock = "hydra-float" }, `--clock hydra-float: scheduler "mct+fifo+bestfit": only sjf-fastest has a float-clock model`},
		{func(o *experiment.SimulateCommand) {
			o.Clock, o.Scheduler, o.Given = "hydra-float", "sjf-fastest", func(f string) bool { return f == "backfill" }
		}, "--clock hydra-float: --backfill does not apply"},
		{func(o *experiment.SimulateCommand) { o.Instances = []string{"nope"} }, "nope"},
		{func(o *experiment.SimulateCommand) { o.RuleGiven, o.Scope = true, "sometimes" }, "sometimes"},
		{func(o *experiment.SimulateCommand) { o.Scheduler = "no-such-scheduler" }, "no-such-scheduler"},
	} {
		o := base
		tc.edit(&o)
		var out bytes.Buffer
		err := experiment.RunSimulate(context.Background(), o, &out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
		if out.Len() > 0 {
			t.Errorf("%q: printed %q", tc.want, out.String())
		}
	}
}

func TestTimeUnitSeconds(t *testing.T) {
	for unit, want := range map[string]bool{"hours": false, "seconds": true} {
		if got, err := experiment.TimeUnitSeconds(unit); err != nil || got != want {
			t.Errorf("%s: %v, %v", unit, got, err)
		}
	}
	if _, err := experiment.TimeUnitSeconds("minutes"); err == nil || err.Error() != `time-unit "minutes": want hours or seconds` {
		t.Errorf("minutes: %v", err)
	}
}

// simulate runs RunSimulate (evogp simulate) quietly with the CLI's
// defaults for what o leaves empty (the default config's simulator
// settings with the overrides the sim flags would make, formulas in
// hours, the engine clock) and returns what it printed.
func simulate(t *testing.T, o experiment.SimulateCommand, simOverrides ...string) (string, error) {
	t.Helper()
	sim, err := experiment.SimSettingsOverridden(configs.Default(), simOverrides)
	if err != nil {
		t.Fatal(err)
	}
	o.Sim, o.Builder, o.Clock, o.Progress = sim, experiment.DefaultPolicyBuilder(false), "engine", progress.Options{Quiet: true}
	var w strings.Builder
	err = experiment.RunSimulate(context.Background(), o, &w)
	return w.String(), err
}

// writeHandDataset writes the reservation example of simcore's tests as a
// hand-made CSV dataset: one node of 4 GPUs, jobs 1 (2 GPUs, 0–100),
// 2 (4 GPUs, arrives 10, 50 s) and 3 (2 GPUs, arrives 10, 10 s).
func writeHandDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clusters.csv", "instance,cluster,nodes,gpus_per_node\nhand,0,1,4\n")
	write("jobs.csv", "instance,job,arrival,cluster,duration,workers,gpus,priority\n"+
		"hand,1,0,0,100,1,2,1\nhand,2,10,0,50,1,4,2\nhand,3,10,0,10,1,2,3\n")
	return dir
}

func TestRunSimulateHandDatasetJSON(t *testing.T) {
	dir := writeHandDataset(t)
	jobsOut := filepath.Join(t.TempDir(), "jobs.csv")
	out, err := simulate(t, experiment.SimulateCommand{Dataset: dir, Scheduler: "user+fifo+bestfit", JSON: true, JobsOut: jobsOut})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &m); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	for _, k := range []string{"instance", "scheduler", "cq_avg", "cq_max", "util", "objective", "avg_jct", "max_qt", "makespan"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	// Queues 0, 90, 140 s with priorities 1, 2, 3 (no backfilling).
	want := map[string]float64{
		"cq_avg":   (0 + 2*90 + 3*140) / 3.0 / 3600,
		"cq_max":   3 * 140 / 3600.0,
		"util":     420.0 / (4 * 160),
		"max_qt":   140 / 3600.0,
		"makespan": 160 / 3600.0,
	}
	for k, v := range want {
		if got := m[k].(float64); math.Abs(got-v) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	b, err := os.ReadFile(jobsOut)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "preemptions") || !strings.Contains(lines[0], "migrations") {
		t.Fatalf("jobs CSV: %q", b)
	}
}

func TestRunSimulateFormulaMatchesTiresias(t *testing.T) {
	dir := writeHandDataset(t)
	a, err := simulate(t, experiment.SimulateCommand{Dataset: dir, Scheduler: "tiresias", JSON: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := simulate(t, experiment.SimulateCommand{Dataset: dir, Scheduler: "mct+formula+bestfit", Priority: "g*d", JSON: true})
	if err != nil {
		t.Fatal(err)
	}
	strip := func(s string) map[string]any {
		var m map[string]any
		json.Unmarshal([]byte(s), &m)
		delete(m, "scheduler")
		return m
	}
	ma, mb := strip(a), strip(b)
	for k, v := range ma {
		if mb[k] != v {
			t.Errorf("%s: tiresias %v, g*d %v", k, v, mb[k])
		}
	}
}

func TestRunSimulateTableAndSummary(t *testing.T) {
	dir := writeHandDataset(t)
	summary := filepath.Join(t.TempDir(), "summary.parquet")
	out, err := simulate(t, experiment.SimulateCommand{Dataset: dir, Scheduler: "spark", SummaryOut: summary}, "sim.trigger=arrival+completion")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "hand") || !strings.Contains(out, "objective") {
		t.Errorf("table: %q", out)
	}
	if _, err := os.Stat(summary); err != nil {
		t.Error(err)
	}
}

// writeRuleDataset writes simcore/rule's hand case: two clusters of one
// node × 4 GPUs; job 0 (4 GPUs, 0–100 s, user 0), job 1 (4 GPUs, 50 s,
// user 0), job 2 (1 GPU, arrives at 10, 10 s, user 1).
func writeRuleDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clusters.csv", "instance,cluster,nodes,gpus_per_node\nhand,0,1,4\nhand,1,1,4\n")
	write("jobs.csv", "instance,job,arrival,cluster,duration,workers,gpus,priority\n"+
		"hand,0,0,0,100,1,4,1\nhand,1,0,0,50,1,4,1\nhand,2,10,1,10,1,1,1\n")
	return dir
}

// With routing x (earliest fit beside the Jn jobs), scope arrivals keeps
// job 1 queued on cluster 0 (finish 150) and sends job 2 to cluster 1
// (finish 20); scope all moves job 1 to cluster 1 at 10 (finish 60) and
// queues job 2 behind it (finish 70). See simcore/rule's
// TestHandComputedBothScopes for the derivation.
func TestRunSimulateRuleScopes(t *testing.T) {
	dir := writeRuleDataset(t)
	for _, c := range []struct {
		scope string
		want  []string // job,cluster,...,finish columns checked by substring
	}{
		{"arrivals", []string{"150", "20"}},
		{"all", []string{"60", "70"}},
	} {
		jobsOut := filepath.Join(t.TempDir(), "jobs.csv")
		_, err := simulate(t, experiment.SimulateCommand{Dataset: dir, Scheduler: "rule+fifo+bestfit", Routing: "x", Scope: c.scope, RuleGiven: true,
			JobsOut: jobsOut})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(jobsOut)
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSpace(string(b)), "\n")
		header := strings.Split(rows[0], ",")
		col := func(name string) int {
			for i, h := range header {
				if h == name {
					return i
				}
			}
			t.Fatalf("jobs.csv lacks %q: %s", name, rows[0])
			return -1
		}
		fin, cl := col("finish"), col("cluster")
		var got []string
		var clusters []string
		for _, r := range rows[1:] {
			f := strings.Split(r, ",")
			got = append(got, f[fin])
			clusters = append(clusters, f[cl])
		}
		want := append([]string{"100"}, c.want...)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("scope %s: finishes %v, want %v (clusters %v)", c.scope, got, want, clusters)
		}
	}
}

package experiment_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

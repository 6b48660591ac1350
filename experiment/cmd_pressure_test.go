package experiment_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
)

// RunPressureCommand checks its input in the order the command always
// did (arguments, config, simulator overrides, time unit, formats,
// pressure overrides, evo overrides, schedulers), so with several bad
// inputs the first one's error is the one reported; nothing is printed
// and no output directory appears.
func TestRunPressureCommandErrors(t *testing.T) {
	ok := func(out string) experiment.PressureCommand {
		return experiment.PressureCommand{Config: "load", Formats: "svg", Schedulers: "spark", Out: out,
			Progress: progress.Options{Quiet: true}}
	}
	for _, tc := range []struct {
		edit func(*experiment.PressureCommand)
		err  string
	}{
		{func(o *experiment.PressureCommand) { o.Args = []string{"extra"}; o.Config = "nope" },
			`pressure: unexpected argument "extra" (flags only; see evogp pressure --help)`},
		{func(o *experiment.PressureCommand) { o.Config = "nope"; o.SimOverrides = []string{"sim.backfill=bad"} }, `"nope"`},
		{func(o *experiment.PressureCommand) {
			o.SimOverrides = []string{"sim.backfill=bad"}
			o.TimeUnit, o.TimeUnitGiven = "minutes", true
		}, "sim.backfill"},
		{func(o *experiment.PressureCommand) { o.TimeUnit, o.TimeUnitGiven = "minutes", true; o.Formats = "gif" },
			`time-unit "minutes": want hours or seconds`},
		{func(o *experiment.PressureCommand) { o.TimeUnit = "minutes"; o.Formats = "gif" }, `format "gif"`},
		{func(o *experiment.PressureCommand) {
			o.PressureOverrides = []string{"pressure.intervals=a"}
			o.EVOOverrides = []string{"evo.population=1"}
		}, "pressure.intervals"},
		{func(o *experiment.PressureCommand) {
			o.EVOOverrides = []string{"evo.population=1"}
			o.Schedulers = "nope"
		},
			"evo.population"},
		{func(o *experiment.PressureCommand) { o.Schedulers = "nope" }, `unknown scheduler "nope"`},
	} {
		out := filepath.Join(t.TempDir(), "pressure")
		o := ok(out)
		tc.edit(&o)
		var w bytes.Buffer
		err := experiment.RunPressureCommand(context.Background(), o, &w)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("error %v, want %q", err, tc.err)
		}
		if w.Len() > 0 {
			t.Errorf("%q: printed %q", tc.err, w.String())
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%q: %s exists", tc.err, out)
		}
	}
}

// runPressure runs RunPressureCommand (evogp pressure) quietly with the
// CLI's defaults for what o leaves empty: the load config and png,svg.
func runPressure(o experiment.PressureCommand) error {
	if o.Config == "" {
		o.Config = "load"
	}
	if o.Formats == "" {
		o.Formats = "png,svg"
	}
	o.Progress = progress.Options{Quiet: true}
	return experiment.RunPressureCommand(context.Background(), o, io.Discard)
}

func TestRunPressureSmall(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pressure")
	err := runPressure(experiment.PressureCommand{Out: out, Formats: "svg", Schedulers: "tiresias,spark,mine=g*d",
		PressureOverrides: []string{"pressure.intervals=600,3600", "pressure.seeds=2", "pressure.jobs=10"}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := reports.ReadPressure(filepath.Join(out, "pressure.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3*2*2 {
		t.Fatalf("%d rows, want 3 schedulers × 2 intervals × 2 seeds", len(rows))
	}
	type key struct {
		iv   float64
		seed int64
	}
	tir := map[key]float64{}
	for _, r := range rows {
		if r.Jobs != 10 || r.Seed < 1 || r.Seed > 2 || (r.Interval != 600 && r.Interval != 3600) {
			t.Fatalf("row %+v", r)
		}
		if r.Scheduler == "tiresias" {
			tir[key{r.Interval, r.Seed}] = r.Objective
		}
	}
	// g*d is SRSF: identical objectives on every instance.
	for _, r := range rows {
		if r.Scheduler == "mine" && r.Objective != tir[key{r.Interval, r.Seed}] {
			t.Fatalf("mine %+v differs from tiresias %v", r, tir[key{r.Interval, r.Seed}])
		}
	}
	if _, err := os.Stat(filepath.Join(out, "pressure.svg")); err != nil {
		t.Fatal(err)
	}
	var man experiment.PressureManifest
	b, _ := os.ReadFile(filepath.Join(out, experiment.MarkerFile))
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	if man.Clusters != 5 || man.Nodes != 40 || man.Jobs != 10 || man.Seeds != 2 || len(man.Intervals) != 2 {
		t.Fatalf("manifest %+v", man)
	}
}

// The same seed gives the same jobs at every interval: only arrivals move.
func TestRunPressureInstancesShareJobs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p")
	if err := runPressure(experiment.PressureCommand{Out: out, Schedulers: "spark",
		PressureOverrides: []string{"pressure.intervals=60,600", "pressure.seeds=1", "pressure.jobs=10"}}); err != nil {
		t.Fatal(err)
	}
	cfgRows, _ := reports.ReadPressure(filepath.Join(out, "pressure.parquet"))
	if len(cfgRows) != 2 {
		t.Fatalf("%d rows", len(cfgRows))
	}
	// Direct check on the generated instances.
	cfg := loadConfigForTest(t)
	cfg.Pressure.Intervals, cfg.Pressure.Seeds, cfg.Pressure.Jobs = []float64{60, 600}, 1, 10
	pis, err := experiment.PressureInstances(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, b := pis[0].Instance, pis[1].Instance
	if len(a.Jobs) != 10 || len(b.Jobs) != 10 || len(a.Clusters) != 5 || a.Clusters[0].Nodes != 40 {
		t.Fatalf("instance shape: %d jobs, %d clusters", len(a.Jobs), len(a.Clusters))
	}
	for i := range a.Jobs {
		ja, jb := a.Jobs[i], b.Jobs[i]
		if ja.Duration != jb.Duration || ja.GPUs != jb.GPUs || ja.Priority != jb.Priority || ja.Cluster != jb.Cluster {
			t.Fatalf("job %d differs between the intervals: %+v vs %+v", i, ja, jb)
		}
	}
	if a.Jobs[len(a.Jobs)-1].Arrival >= b.Jobs[len(b.Jobs)-1].Arrival {
		t.Fatal("a longer interval did not spread arrivals")
	}
}

func loadConfigForTest(t *testing.T) configs.Config {
	t.Helper()
	cfg, err := configs.Load("load")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

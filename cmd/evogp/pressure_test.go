package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/reports"
)

func TestPressureSmall(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pressure")
	_, _, err := runApp(t, "pressure", "--config", "load", "--quiet", "--out", out, "--format", "svg",
		"--schedulers", "tiresias,spark,mine=g*d", "--intervals", "600,3600", "--seeds", "2", "--jobs", "10")
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
func TestPressureInstancesShareJobs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p")
	if _, _, err := runApp(t, "pressure", "--quiet", "--out", out, "--schedulers", "spark", "--intervals", "60,600", "--seeds", "1", "--jobs", "10"); err != nil {
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

func TestPressureBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--intervals", "60,x"}, "pressure.intervals[1] wants a number"},
		{[]string{"--intervals", "0"}, "pressure.intervals: 0 must be > 0"},
		{[]string{"--seeds", "0"}, "seeds"},
		{[]string{"--config", "nope"}, "nope"},
		{[]string{"--schedulers", "fastest"}, "unknown scheduler"},
		{[]string{"--objective", "both"}, "objective"},
	} {
		_, _, err := runApp(t, append([]string{"pressure", "--quiet", "--out", out, "--jobs", "5"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
		assertAbsent(t, out)
	}
	help, _, err := runApp(t, "pressure", "--help")
	if err != nil || !strings.Contains(help, "Examples:") {
		t.Fatalf("help: %v", err)
	}
}

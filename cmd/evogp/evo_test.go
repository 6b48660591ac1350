package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/reports"
)

// evoDataset generates two small three-cluster instances on which MCT
// leaves queues, so that EVO has decisions to make.
func evoDataset(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	if _, _, err := runApp(t, "data", "gen", "--config", "smoke", "--instances", "2", "--seed", "4", "--out", dir,
		"generator.clusters=3,3", "generator.nodes=2,3", "generator.jobs_per_node=8"); err != nil {
		t.Fatal(err)
	}
	return dir
}

// simulate --scheduler evo-srsf writes one ops row per EVO operation, and
// every output is byte-identical across --workers 1 and 4, --evo-workers 1
// and 3, and two runs; only wall_ms may differ in the ops log.
func TestSimulateEVODeterministicWithOpsLog(t *testing.T) {
	data := evoDataset(t)
	type outputs struct {
		stdout             string
		jobs, summary, ops []byte
		opsRows            []reports.OpsRow
	}
	run := func(workers, evoWorkers string) outputs {
		dir := t.TempDir()
		args := []string{"simulate", "--dataset", data, "--scheduler", "evo-srsf", "--json", "--quiet",
			"--evo-population", "6", "--evo-generations", "4", "--evo-mutation", "0.5", "--seed", "7",
			"--workers", workers, "--evo-workers", evoWorkers,
			"--jobs-out", filepath.Join(dir, "jobs.parquet"), "--summary-out", filepath.Join(dir, "summary.parquet"),
			"--ops-out", filepath.Join(dir, "ops.parquet")}
		stdout, _, err := runApp(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		var o outputs
		o.stdout = stdout
		o.jobs, _ = os.ReadFile(filepath.Join(dir, "jobs.parquet"))
		o.summary, _ = os.ReadFile(filepath.Join(dir, "summary.parquet"))
		if o.opsRows, err = reports.ReadOps(filepath.Join(dir, "ops.parquet")); err != nil {
			t.Fatal(err)
		}
		for i := range o.opsRows {
			o.opsRows[i].WallMS = 0
		}
		var b bytes.Buffer
		if err := json.NewEncoder(&b).Encode(o.opsRows); err != nil {
			t.Fatal(err)
		}
		o.ops = b.Bytes()
		return o
	}
	ref := run("1", "1")
	if len(ref.opsRows) == 0 {
		t.Fatal("no EVO operation recorded")
	}
	improved := 0
	insts := map[string]bool{}
	for _, r := range ref.opsRows {
		insts[r.Instance] = true
		if r.Scheduler != "evo-srsf" || r.JS < 1 || r.Generations > 4 || r.Evaluations > 6*(1+r.Generations) {
			t.Fatalf("ops row %+v", r)
		}
		if r.EVOFitness > r.MCTFitness*(1+1e-12) {
			t.Fatalf("seeded EVO worse than the current assignment at t: %+v", r)
		}
		if r.EVOFitness < r.MCTFitness {
			improved++
		}
	}
	if len(insts) != 2 || improved == 0 {
		t.Fatalf("ops log covers instances %v with %d improved operations; want both instances and some improvement", insts, improved)
	}
	for _, w := range [][2]string{{"4", "1"}, {"1", "3"}, {"4", "3"}, {"1", "1"}} {
		o := run(w[0], w[1])
		if o.stdout != ref.stdout || !bytes.Equal(o.jobs, ref.jobs) || !bytes.Equal(o.summary, ref.summary) || !bytes.Equal(o.ops, ref.ops) {
			t.Fatalf("--workers %s --evo-workers %s: outputs differ from --workers 1 --evo-workers 1", w[0], w[1])
		}
	}
}

// Bad evo values are refused with EVOParams.Validate's message and leave
// no output behind.
func TestSimulateEVOBadParams(t *testing.T) {
	data := evoDataset(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--evo-population", "1"}, "evo.population = 1: must be ≥ 2"},
		{[]string{"--evo-generations", "-2"}, "evo.generations = -2: must be ≥ 0"},
		{[]string{"--evo-population", "10", "--evo-budget", "5"}, "evo.budget = 5: must be 0 (off) or at least the population (10)"},
		{[]string{"--evo-init", "mct"}, `evo.init = "mct": want seeded or random`},
		{[]string{"--evo-mutation", "2"}, "evo.mutation = 2: must be in [0, 1]"},
	} {
		ops := filepath.Join(t.TempDir(), "ops.parquet")
		args := append([]string{"simulate", "--dataset", data, "--scheduler", "evo-srsf", "--quiet", "--ops-out", ops}, c.args...)
		_, _, err := runApp(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
		assertAbsent(t, ops)
	}
}

// pressure accepts evo-* schedulers (Fig. 11a) and takes the config's evo
// section, overridden by the flags.
func TestPressureEVO(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pressure")
	_, _, err := runApp(t, "pressure", "--config", "load", "--quiet", "--out", out, "--format", "svg",
		"--schedulers", "liquid,evo-fifo", "--intervals", "60,600", "--seeds", "1", "--jobs", "30",
		"--evo-population", "4", "--evo-generations", "2")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := reports.ReadPressure(filepath.Join(out, "pressure.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 2 schedulers × 2 intervals", len(rows))
	}
	_, _, err = runApp(t, "pressure", "--config", "load", "--quiet", "--out", filepath.Join(t.TempDir(), "p2"),
		"--schedulers", "evo-fifo", "--evo-population", "1")
	if err == nil || !strings.Contains(err.Error(), "evo.population = 1") {
		t.Fatalf("population 1: err = %v", err)
	}
}

// evo works when some jobs are feasible on one cluster only: the 16-GPU
// jobs fit only the two-node cluster 1 and must run there.
func TestSimulateEVOSingleFeasibleCluster(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clusters.csv", "instance,cluster,nodes,gpus_per_node\nh,0,1,4\nh,1,2,8\n")
	write("jobs.csv", "instance,job,arrival,cluster,duration,workers,gpus,priority\n"+
		"h,1,0,1,3600,2,16,1\nh,2,0,1,600,1,4,2\nh,3,0,1,600,1,4,3\nh,4,10,1,3600,2,16,2\nh,5,10,0,300,1,4,1\nh,6,20,1,900,1,2,1\n")
	jobs := filepath.Join(t.TempDir(), "jobs.csv")
	ops := filepath.Join(t.TempDir(), "ops.csv")
	if _, _, err := runApp(t, "simulate", "--dataset", dir, "--scheduler", "evo-srsf", "--quiet", "--evo-population", "6",
		"--evo-generations", "5", "--jobs-out", jobs, "--ops-out", ops); err != nil {
		t.Fatal(err)
	}
	rows, err := reports.ReadJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("%d jobs finished, want 6", len(rows))
	}
	for _, r := range rows {
		if r.GPUs == 16 && r.Cluster != 1 {
			t.Errorf("job %d (16 GPUs) ran on cluster %d, where it does not fit", r.Job, r.Cluster)
		}
	}
	o, err := reports.ReadOps(ops)
	if err != nil || len(o) == 0 {
		t.Fatalf("ops log: %d rows, %v", len(o), err)
	}
	for _, r := range o {
		if r.EVOFitness > r.MCTFitness*(1+1e-12) {
			t.Errorf("operation %+v: EVO worse than the current assignment", r)
		}
	}
}

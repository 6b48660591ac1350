package experiment_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/simcore"
)

// twoJobs is one 4-GPU node and two 4-GPU jobs arriving together: a
// one-hour job (id 0) and a half-hour job (id 1).
func twoJobs() simcore.Instance {
	return simcore.Instance{
		Name:     "two-jobs",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}},
		Jobs: []simcore.Job{
			{ID: 0, Arrival: 0, Duration: 3600, Workers: 1, GPUs: 4, Priority: 1},
			{ID: 1, Arrival: 0, Duration: 1800, Workers: 1, GPUs: 4, Priority: 1},
		},
	}
}

// A policy is a named scheduler or a formula under mct+formula+bestfit;
// SimulateAll runs it on instances. FIFO runs the long job first (JCTs 1 h
// and 1.5 h); the formula g*d, like SRSF, runs the short one first (0.5 h
// and 1.5 h).
func ExampleSimulateAll() {
	opts, err := experiment.DefaultSimSettings().Options()
	if err != nil {
		panic(err)
	}
	fifo, _ := experiment.NewPolicy("mct+fifo+bestfit", "", false)
	gd, _ := experiment.NewPolicy(experiment.FormulaScheduler, "g*d", false)
	insts := []simcore.Instance{twoJobs()}
	for _, p := range []experiment.Policy{fifo, gd} {
		res, err := experiment.SimulateAll(context.Background(), insts, p, opts, 1, nil)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: average JCT %.2f h\n", p.Name, res[0].Metrics.AvgJCT)
	}
	// Output:
	// mct+fifo+bestfit: average JCT 1.25 h
	// mct+formula+bestfit[g * d]: average JCT 1.00 h
}

// ParsePolicies reads the --schedulers list of eval and pressure.
func ExampleParsePolicies() {
	ps, err := experiment.ParsePolicies("tiresias,mine=g*d+q", false, false)
	if err != nil {
		panic(err)
	}
	for _, p := range ps {
		fmt.Printf("%s runs %s\n", p.Label, p.Name)
	}
	_, err = experiment.NewPolicy("tiresias", "g*d", false)
	fmt.Println(err != nil) // a formula needs a formula ranking
	// Output:
	// tiresias runs tiresias
	// mine runs mct+formula+bestfit[g * d + q]
	// true
}

// Eval simulates several policies on a dataset directory and writes the
// tables, the summary and the figures into a new directory, atomically.
func ExampleEval() {
	tmp, _ := os.MkdirTemp("", "example-eval")
	defer os.RemoveAll(tmp)
	data := filepath.Join(tmp, "data")
	if err := datasets.Write(data, &datasets.Dataset{Instances: []simcore.Instance{twoJobs()}}, datasets.FormatCSV); err != nil {
		panic(err)
	}
	ps, _ := experiment.ParsePolicies("spark,tiresias", false, false)
	res, err := experiment.Eval(context.Background(), experiment.EvalSettings{
		Dataset: data, Policies: ps, Sim: experiment.DefaultSimSettings(),
		Figures:  experiment.FigureOptions{Formats: []string{"svg"}, Reference: "tiresias"},
		Out:      filepath.Join(tmp, "eval"),
		Progress: progress.Options{Quiet: true},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Instances, res.Files[:2])
	// Output: 1 [summary.md summary.csv]
}

// PressureInstances generates the load-pressure study's instances: the
// same jobs at every inter-arrival interval Δ.
func ExamplePressureInstances() {
	cfg, _ := configs.Load("load")
	cfg.Pressure.Intervals, cfg.Pressure.Seeds, cfg.Pressure.Jobs = []float64{60, 600}, 1, 10
	pis, err := experiment.PressureInstances(cfg)
	if err != nil {
		panic(err)
	}
	for _, pi := range pis {
		last := pi.Instance.Jobs[len(pi.Instance.Jobs)-1]
		fmt.Printf("%s: %d jobs on %d clusters, last arrival %d s\n", pi.Instance.Name, len(pi.Instance.Jobs), len(pi.Instance.Clusters), last.Arrival)
	}
	// Output:
	// interval-60-seed-1: 10 jobs on 5 clusters, last arrival 540 s
	// interval-600-seed-1: 10 jobs on 5 clusters, last arrival 5400 s
}

// A sweep's arguments become fixed overrides and axes; the points are
// their cartesian product, each in a directory whose name is safe for
// every tool.
func ExampleSweepPoints() {
	fixed, axes, err := experiment.ParseSweepArgs([]string{"objective.omega=0,1", "seed=1,2", "gp.population=16"})
	if err != nil {
		panic(err)
	}
	fmt.Println("fixed:", fixed)
	for _, p := range experiment.SweepPoints(axes) {
		fmt.Println(experiment.PointName(p), "→ points/"+experiment.PointDirName(p))
	}
	// Output:
	// fixed: [gp.population=16]
	// objective.omega=0,seed=1 → points/objective.omega-0_seed-1
	// objective.omega=0,seed=2 → points/objective.omega-0_seed-2
	// objective.omega=1,seed=1 → points/objective.omega-1_seed-1
	// objective.omega=1,seed=2 → points/objective.omega-1_seed-2
}

package learn_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
)

// Learn a priority function on the tiny smoke config, with two extra
// terminals (a: time since arrival, w: GPUs per worker) and the baselines'
// rankings seeded into the initial population, then print what the run
// directory holds and how the result compares with the best baseline.
func ExampleRun() {
	cfg, err := configs.Load("smoke")
	if err != nil {
		panic(err)
	}
	cfg, err = cfg.Override("gp.terminals=d,q,u,g,a,w", "gp.seed_formulas=g * d,0 - a,0 - w")
	if err != nil {
		panic(err)
	}
	train, val, err := learn.LoadData(cfg)
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "learn-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	res, err := learn.Run(context.Background(), learn.Settings{
		Config: cfg, Train: train, Validation: val,
		Out: filepath.Join(dir, "run"), Progress: progress.Options{Quiet: true},
	})
	if err != nil {
		panic(err)
	}
	best, err := learn.ReadBest(filepath.Join(res.Dir, learn.BestFile))
	if err != nil {
		panic(err)
	}
	fmt.Println("generations:", len(res.Generations)-1)
	fmt.Println("terminals:", best.Terminals)
	fmt.Println("candidate:", best.Candidate)
	// The rows: learned, the five named baselines (wait-first included), constant, srsf.
	fmt.Println("test rows:", len(res.Test.Rows), "on", res.Test.Instances, "instances")
	// Output:
	// generations: 2
	// terminals: d,q,u,g,a,w
	// candidate: mct+formula+bestfit
	// test rows: 8 on 3 instances
}

package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
)

func learnCommand() *cli.Command {
	return &cli.Command{
		Name:      "learn",
		Usage:     "learn a priority function by genetic programming (Algorithm 3) — the main job",
		ArgsUsage: "[key=value ...]",
		UsageText: "evogp learn [--config NAME|FILE] [--out DIR] [--train DIR --validation DIR] [--quiet] [key=value ...]\n" +
			"   evogp learn --resume RUN_DIR [key=value ...]\n\n" +
			"Examples:\n" +
			"   evogp learn                                   # quick config, about a minute on 2 cores\n" +
			"   evogp learn --config paper                    # the paper: population 512, 100 generations\n" +
			"   evogp learn gp.population=256 objective.weights=1,0,1 seed=7\n" +
			"   evogp learn --train data/train --validation data/val --out runs/mine\n" +
			"   evogp learn --resume runs/quick-20260101T120000Z\n" +
			"   evogp learn --resume runs/quick-20260101T120000Z gp.generations=200   # extend a run to 200 generations\n" +
			"   evogp learn -m objective.kind=single objective.omega=0,0.25,0.5,0.75,1 seed=1,2,3 --out runs/omega\n" +
			"   (with -m a comma list sweeps that key; [a,b] is one list value; re-running the same sweep\n" +
			"   skips finished points and resumes interrupted ones)\n" +
			"   evogp learn -m seed=1,2,3 --out /shared/seeds --launcher slurm --partition cpu --time 2:00:00 --cpus-per-task 4\n" +
			"   (one Slurm job array, a task per point; then evogp status /shared/seeds and evogp collect /shared/seeds)",
		Description: "Generates the training and validation instances from the config (or reads --train and\n" +
			"--validation), evolves a priority function f over gp.terminals (default d, q, u, g) whose\n" +
			"fitness is the sum over a per-generation training subset of objective(mct+f+bestfit) /\n" +
			"objective(mct+srsf+bestfit), picks the best of the final population and hall of fame on the\n" +
			"validation set, compares it with the best baseline, scores it on the held-out test split\n" +
			"(data.test or data.test_dir) against every baseline, a constant and SRSF, and writes\n" +
			"runs/<config>-<UTC time>/ (or --out): config.yaml, generations.parquet, hall_of_fame.csv,\n" +
			"best.json, formula.go.txt, formula.tex, convergence.png/.svg and checkpoint/.\n" +
			"key=value arguments override any config key (unknown keys are errors; values must have the\n" +
			"key's type); flags may come before or after them. Ctrl-C stops after\n" +
			"the current evaluation and keeps the checkpoint; --resume continues it to the same result.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "config", Value: "quick", Usage: "embedded config name (" + strings.Join(configs.Names(), ", ") + ") or YAML file"},
			&cli.StringFlag{Name: "out", Usage: "run directory (default runs/<config>-<UTC time>)"},
			&cli.StringFlag{Name: "train", Usage: "training dataset directory instead of generated instances"},
			&cli.StringFlag{Name: "validation", Usage: "validation dataset directory instead of generated instances"},
			&cli.StringFlag{Name: "resume", Usage: "continue the interrupted run in `RUN_DIR` from its checkpoint; with a larger gp.generations, extend a finished run (same result as one run that long; no other key may change)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
			&cli.BoolFlag{Name: "multirun", Aliases: []string{"m"}, Usage: "sweep: key=v1,v2 arguments span a cartesian product of runs (one run directory per point under --out)"},
			&cli.IntFlag{Name: "jobs", Value: 1, Usage: "sweep points run side by side (each gets its share of the cores)"},
		}, launcherFlags()...),
		Action: runLearn,
	}
}

func runLearn(c *cli.Context) error {
	// Flags may follow the overrides: `evogp learn seed=2 --out runs/x`.
	overrides, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if c.Bool("multirun") {
		return runSweep(c, overrides)
	}
	if c.IsSet("jobs") {
		return fmt.Errorf("learn: --jobs runs sweep points side by side and needs -m (a single run uses gp.workers=N)")
	}
	if c.IsSet("launcher") && c.String("launcher") != launcherLocal {
		return fmt.Errorf("learn: --launcher %s runs the points of a sweep and needs -m", c.String("launcher"))
	}
	pr := progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")}
	if dir := c.String("resume"); dir != "" {
		for _, f := range []string{"out", "train", "validation"} {
			if c.IsSet(f) {
				return fmt.Errorf("learn: --%s cannot be combined with --resume (the run directory fixes it)", f)
			}
		}
		var cfg configs.Config
		var err error
		if c.IsSet("config") {
			cfg, err = configs.Load(c.String("config"))
		} else {
			cfg, err = learn.RunConfig(dir)
		}
		if err != nil {
			return err
		}
		if cfg, err = cfg.Override(overrides...); err != nil {
			return err
		}
		res, nval, err := experiment.ResumeLearn(c.Context, dir, cfg, pr, provenance(c))
		if err != nil {
			return err
		}
		return printLearned(c, res, nval)
	}

	cfg, err := configs.Load(c.String("config"))
	if err != nil {
		return err
	}
	if cfg, err = cfg.Override(overrides...); err != nil {
		return err
	}
	// Dataset directories are recorded absolute in config.yaml so that
	// --resume works from any working directory.
	for _, d := range []struct {
		flag string
		dst  *string
	}{{"train", &cfg.Data.TrainDir}, {"validation", &cfg.Data.ValDir}} {
		if v := c.String(d.flag); v != "" {
			abs, err := filepath.Abs(v)
			if err != nil {
				return fmt.Errorf("learn: --%s: %w", d.flag, err)
			}
			*d.dst = abs
		}
	}
	out := c.String("out")
	if out == "" {
		out = experiment.FreshDir(filepath.Join("runs", cfg.Name+"-"+time.Now().UTC().Format("20060102T150405Z")))
	}
	res, nval, err := experiment.Learn(c.Context, experiment.LearnSettings{Config: cfg, Out: out, Progress: pr, Provenance: provenance(c)})
	if !c.IsSet("out") {
		linkLatest(c, out)
	}
	if err != nil {
		// A *learn.InterruptedError (Ctrl-C) says where the checkpoint is
		// and how to resume; anything else left no run directory.
		return err
	}
	return printLearned(c, res, nval)
}

// printLearned reports the outcome of a finished run: the formula, the
// verdict against the best baseline (learn.Headline), any warning, and the
// held-out test table.
func printLearned(c *cli.Context, res *learn.Result, nval int) error {
	w := c.App.Writer
	if res.Routing != nil {
		fmt.Fprintf(w, "learned routing R (each job goes to the feasible cluster with the smallest R; scope %s): %s\n", res.Scope, res.RoutingSimplified)
		fmt.Fprintf(w, "learned ranking f (smaller runs first): %s\n", res.Simplified)
	} else {
		fmt.Fprintf(w, "learned priority function (smaller runs first): %s\n", res.Simplified)
	}
	fmt.Fprintf(w, "on the simulator's inputs (d>0, q≥0, u≥1, g≥1, no overflow): %s\n",
		expr.SimplifyOn(res.Best, expr.DefaultDomain()))
	fmt.Fprintf(w, "%s\n", learn.Headline(res))
	for _, warn := range res.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", warn)
	}
	if res.Front != nil {
		if err := res.Front.WriteText(w); err != nil {
			return err
		}
	}
	if res.Test != nil {
		if err := res.Test.WriteText(w); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "evaluations: %d simulations, %d cache hits over %d generations (%d validation instances)\n", res.Evaluations, res.CacheHits, len(res.Generations)-1, nval)
	fmt.Fprintf(w, "run directory: %s\n", res.Dir)
	return nil
}

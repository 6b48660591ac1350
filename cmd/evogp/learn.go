package main

import (
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
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
		Description: experiment.LearnHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "config", Value: "quick", Usage: "embedded config name (" + strings.Join(configs.Names(), ", ") + ") or YAML file"},
			&cli.StringFlag{Name: "out", Usage: "run directory (default runs/<config>-<UTC time>)"},
			&cli.StringFlag{Name: "train", Usage: "training dataset directory instead of generated instances"},
			&cli.StringFlag{Name: "validation", Usage: "validation dataset directory instead of generated instances"},
			&cli.StringFlag{Name: "resume", Usage: "continue the interrupted run in `RUN_DIR` from its checkpoint; with a larger gp.generations, extend a finished run (same result as one run that long; no other key may change)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
			&cli.Float64Flag{Name: "reduce-tolerance", Usage: "also print a shorter approximation of the reduced formulas whose validation score is within `PERCENT` % (labelled approximate; the exact reduction stays the result)"},
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
	return experiment.RunLearnCommand(c.Context, experiment.LearnCommand{Overrides: overrides, Config: c.String("config"), ReduceTolerance: c.Float64("reduce-tolerance"),
		Out: c.String("out"), Train: c.String("train"), Validation: c.String("validation"), Resume: c.String("resume"),
		Multirun: c.Bool("multirun"), Jobs: c.Int("jobs"), Launch: launchOptions(c), Given: c.IsSet, Now: time.Now(),
		Progress: progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")}, Provenance: provenance(c)}, c.App.Writer, c.App.ErrWriter)
}

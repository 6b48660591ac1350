package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// simFlags set the sim and objective keys of the commands that simulate;
// their defaults are configs.Default's.
func simFlags() flagSet {
	d := configs.Default()
	w := d.Objective.Weights
	return flagSet{flags: []cli.Flag{
		&cli.StringFlag{Name: "trigger", Value: d.Sim.Trigger, Usage: "sim.trigger: when operations run: arrival | arrival+completion"},
		&cli.StringFlag{Name: "backfill", Value: d.Sim.Backfill, Usage: "sim.backfill: none (Eq. 13 reservations) | conservative | greedy | strict (greedy with head-of-line blocking) | preemptive (greedy; higher-ranked jobs preempt running ones, e.g. SRTF)"},
		&cli.StringFlag{Name: "arrival-ties", Value: d.Sim.ArrivalTies, Usage: "sim.arrival_ties: order of jobs submitted in the same second: id (default) | numpy-quicksort (numpy's unstable argsort, as Helios lists its trace)"},
		&cli.StringFlag{Name: "weights", Value: runfile.FormatWeights(w), Usage: "objective.weights: ω1,ω2,ω3 of Eq. 5"},
		&cli.StringFlag{Name: "objective", Value: d.Objective.Kind, Usage: "objective.kind: " + simcore.ObjectiveKindsUsage()},
		&cli.Float64Flag{Name: "omega", Value: d.Objective.Omega, Usage: "objective.omega: ω of Eq. 16 and of the deadline objective"},
		&cli.StringFlag{Name: "time-unit", Value: "hours", Usage: "unit of d and q inside formulas: hours | seconds"},
	}, keys: map[string]string{"trigger": "sim.trigger", "backfill": "sim.backfill", "arrival-ties": "sim.arrival_ties", "weights": "objective.weights",
		"objective": "objective.kind", "omega": "objective.omega"}}
}

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:  "simulate",
		Usage: "run a scheduler over every instance of a dataset and print the SPEC §6 metrics",
		UsageText: "evogp simulate --dataset DIR [--scheduler NAME|ALLOC+RANK+PLACE] [--priority FORMULA] [options]\n\n" +
			"Examples:\n" +
			"   evogp simulate --dataset data/train --scheduler tiresias\n" +
			"   evogp simulate --dataset data/test --scheduler gp=runs/quick       # a learned run, as in eval\n" +
			"   evogp simulate --dataset data/train --scheduler mct+formula+bestfit --priority \"g*d\" --json\n" +
			"   evogp simulate --dataset data/train --scheduler user+fifo+roundrobin --trigger arrival+completion --jobs-out jobs.csv\n" +
			"   evogp simulate --dataset data/test --scheduler evo-srsf --evo-population 20 --evo-generations 20 --ops-out ops.parquet\n" +
			"   evogp simulate --dataset data/test --scheduler rule+srsf+bestfit --routing \"W - o\" --scope all",
		Description: experiment.SimulateHelp(),
		Flags: withFlags([]cli.Flag{
			&cli.StringFlag{Name: "dataset", Required: true, Usage: "dataset directory (Parquet or CSV)"},
			&cli.StringFlag{Name: "scheduler", Value: "tiresias", Usage: "scheduler name or ALLOCATOR+RANKING+PLACER, or LABEL=SOURCE as in eval (gp=RUN: a learner run directory or best.json; see the description)"},
			&cli.StringSliceFlag{Name: "instances", Aliases: []string{"instance"}, Usage: "simulate only these instances (by name; repeat or comma-separate)"},
			&cli.StringFlag{Name: "routing", Usage: "routing formula of the rule allocator (SPEC §16) over d q u g r w a N C f W n x h o m (smaller = preferred cluster; default W), e.g. rule+srsf+bestfit"},
			&cli.StringFlag{Name: "scope", Usage: "jobs the rule allocator re-decides: arrivals (default) | all"},
			&cli.StringFlag{Name: "priority", Usage: "priority formula over d, q, u, g (smaller runs first) for a scheduler whose ranking is formula, e.g. mct+formula+bestfit"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per instance"},
			&cli.StringFlag{Name: "jobs-out", Usage: "write per-job results to PATH (.csv or .parquet)"},
			&cli.StringFlag{Name: "summary-out", Usage: "write the metric table to PATH (.csv or .parquet)"},
			&cli.StringFlag{Name: "ops-out", Usage: "write the EVO operation log (one row per evo operation) to PATH (.parquet or .csv)"},
			&cli.IntFlag{Name: "workers", Usage: "instances simulated in parallel (0 = all cores)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
			// The simulator's time model: the engine's integer seconds, or Hydra's float clock for sjf-fastest on
			// Hydra-model instances (experiment.FloatClock), which reproduces the figures of Hydra's own simulator.
			&cli.StringFlag{Name: "clock", Value: "engine", Usage: "time model: engine (integer seconds) | hydra-float (Hydra's float clock with steps ≥ 1 s and later-row ties; scheduler sjf-fastest only, prints avg JCT, tardiness and misses in seconds)"},
		}, simFlags(), evoFlags(true), estimatesFlags()),
		Action: runSimulate,
	}
}

func runSimulate(c *cli.Context) error {
	base := configs.Default()
	// A dataset generated from a config with its own objective (hetero:
	// deadline, ω = 0.2) is scored with it unless an objective flag is given.
	if !c.IsSet("objective") && !c.IsSet("weights") && !c.IsSet("omega") {
		obj, name, ok, err := experiment.DatasetObjective(c.String("dataset"))
		if err != nil {
			return err
		}
		if ok {
			base.Objective = obj
			if !c.Bool("quiet") {
				rec, err := obj.Record()
				if err != nil {
					return err
				}
				fmt.Fprintf(c.App.ErrWriter, "objective %s of config %s, which generated the dataset; --objective, --omega or --weights choose another\n", rec, name)
			}
		}
	}
	sim, err := experiment.SimSettingsOverridden(base, simFlags().overrides(c))
	if err != nil {
		return err
	}
	seconds, err := experiment.TimeUnitSeconds(c.String("time-unit"))
	if err != nil {
		return err
	}
	b, err := experiment.OverriddenPolicyBuilder(configs.Default(), evoFlags(true).overrides(c), seconds, true)
	if err != nil {
		return err
	}
	return experiment.RunSimulate(c.Context, experiment.SimulateCommand{Dataset: c.String("dataset"), Instances: c.StringSlice("instances"),
		Builder: b, Scheduler: c.String("scheduler"), Priority: c.String("priority"),
		Routing: c.String("routing"), Scope: c.String("scope"), RuleGiven: c.IsSet("routing") || c.IsSet("scope"),
		Prepare: func(insts []simcore.Instance) error { return applyEstimates(c, insts) },
		Clock:   c.String("clock"), Given: c.IsSet, Sim: sim, Workers: c.Int("workers"),
		JobsOut: c.String("jobs-out"), OpsOut: c.String("ops-out"), SummaryOut: c.String("summary-out"), JSON: c.Bool("json"),
		Progress: progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")}}, c.App.Writer)
}

package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
)

func simFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "trigger", Value: "arrival", Usage: "when operations run: arrival | arrival+completion"},
		&cli.StringFlag{Name: "backfill", Value: "none", Usage: "none (Eq. 13 reservations) | conservative | greedy | strict (greedy with head-of-line blocking) | preemptive (greedy; higher-ranked jobs preempt running ones, e.g. SRTF)"},
		&cli.StringFlag{Name: "arrival-ties", Value: "id", Usage: "order of jobs submitted in the same second: id | numpy-quicksort (numpy's unstable argsort, as Helios lists its trace)"},
		&cli.StringFlag{Name: "weights", Value: "1,1,1", Usage: "ω1,ω2,ω3 of Eq. 5"},
		&cli.StringFlag{Name: "objective", Value: "multi", Usage: "multi (Eq. 5) | single (Eq. 16) | deadline (ω·avg JCT + (1−ω)·mean tardiness)"},
		&cli.Float64Flag{Name: "omega", Value: 0.5, Usage: "ω of Eq. 16 (single-cluster objective)"},
		&cli.StringFlag{Name: "time-unit", Value: "hours", Usage: "unit of d and q inside formulas: hours | seconds"},
	}
}

// simSettingsFrom applies the simulator flags to base: every flag, or with
// onlySet only the flags the user gave (the config supplies the rest).
func simSettingsFrom(c *cli.Context, base experiment.SimSettings, onlySet bool) (experiment.SimSettings, error) {
	use := func(flag string) bool { return !onlySet || c.IsSet(flag) }
	s := base
	if use("trigger") {
		s.Sim.Trigger = c.String("trigger")
	}
	if use("backfill") {
		s.Sim.Backfill = c.String("backfill")
	}
	if use("arrival-ties") {
		s.Sim.ArrivalTies = c.String("arrival-ties")
	}
	if use("objective") {
		s.Objective.Kind = c.String("objective")
	}
	if use("omega") {
		s.Objective.Omega = c.Float64("omega")
	}
	if use("weights") {
		parts := strings.Split(c.String("weights"), ",")
		if len(parts) != 3 {
			return s, fmt.Errorf("--weights %q: want three numbers ω1,ω2,ω3", c.String("weights"))
		}
		for i, p := range parts {
			w, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return s, fmt.Errorf("--weights %q: %w", c.String("weights"), err)
			}
			s.Objective.Weights[i] = w
		}
	}
	return s, nil
}

func secondsUnit(c *cli.Context) (bool, error) {
	switch c.String("time-unit") {
	case "hours":
		return false, nil
	case "seconds":
		return true, nil
	}
	return false, fmt.Errorf("time-unit %q: want hours or seconds", c.String("time-unit"))
}

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:  "simulate",
		Usage: "run a scheduler over every instance of a dataset and print the SPEC §6 metrics",
		UsageText: "evogp simulate --dataset DIR [--scheduler NAME|ALLOC+RANK+PLACE] [--priority FORMULA] [options]\n\n" +
			"Examples:\n" +
			"   evogp simulate --dataset data/train --scheduler tiresias\n" +
			"   evogp simulate --dataset data/train --scheduler mct+formula+bestfit --priority \"g*d\" --json\n" +
			"   evogp simulate --dataset data/train --scheduler user+fifo+roundrobin --trigger arrival+completion --jobs-out jobs.csv\n" +
			"   evogp simulate --dataset data/test --scheduler evo-srsf --evo-population 20 --evo-generations 20 --ops-out ops.parquet",
		Description: "Schedulers: spark, liquid, tiresias, lyra, gp, evo-gp, evo-fifo, evo-srsf, evo-lyra, evo-sjf, evo-srtf,\n" +
			"or ALLOCATOR+RANKING+PLACER with allocators user|mct|evo, rankings fifo|srsf|lyra|sjf|srtf|formula\n" +
			"and placers bestfit|roundrobin. The evo allocator (SPEC §11) takes the --evo-* flags and --seed;\n" +
			"--ops-out writes its per-operation log (columns in docs/RESULTS.md).\n" +
			"Metrics are in hours (util is a fraction); per-job outputs are in seconds.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "dataset", Required: true, Usage: "dataset directory (Parquet or CSV)"},
			&cli.StringFlag{Name: "scheduler", Value: "tiresias", Usage: "scheduler name or ALLOCATOR+RANKING+PLACER"},
			&cli.StringSliceFlag{Name: "instances", Aliases: []string{"instance"}, Usage: "simulate only these instances (by name; repeat or comma-separate)"},
			&cli.StringFlag{Name: "priority", Usage: "priority formula over d, q, u, g (smaller runs first) for a scheduler whose ranking is formula, e.g. mct+formula+bestfit"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per instance"},
			&cli.StringFlag{Name: "jobs-out", Usage: "write per-job results to PATH (.csv or .parquet)"},
			&cli.StringFlag{Name: "summary-out", Usage: "write the metric table to PATH (.csv or .parquet)"},
			&cli.StringFlag{Name: "ops-out", Usage: "write the EVO operation log (one row per evo operation) to PATH (.parquet or .csv)"},
			&cli.IntFlag{Name: "workers", Usage: "instances simulated in parallel (0 = all cores)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
			clockFlag(),
		}, append(append(simFlags(), evoFlags(true)...), estimatesFlags()...)...),
		Action: runSimulate,
	}
}

func runSimulate(c *cli.Context) error {
	sim, err := simSettingsFrom(c, experiment.DefaultSimSettings(), false)
	if err != nil {
		return err
	}
	seconds, err := secondsUnit(c)
	if err != nil {
		return err
	}
	b, err := policyBuilder(c, configs.Default(), false, seconds, true)
	if err != nil {
		return err
	}
	p, err := b.Policy(c.String("scheduler"), c.String("priority"))
	if err != nil {
		return err
	}
	ds, err := datasets.ReadContext(c.Context, c.String("dataset"))
	if err != nil {
		return err
	}
	if ds.Instances, err = experiment.SelectInstances(ds.Instances, c.StringSlice("instances")); err != nil {
		return err
	}
	if err := applyEstimates(c, ds.Instances); err != nil {
		return err
	}
	switch c.String("clock") {
	case "engine":
	case "hydra-float":
		return runFloatClock(c, ds)
	default:
		return fmt.Errorf("--clock %q: want engine or hydra-float", c.String("clock"))
	}
	out, err := experiment.SimulateTables(c.Context, ds.Instances, p, sim, c.Int("workers"), c.String("jobs-out") != "", c.String("ops-out") != "",
		progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")})
	if err != nil {
		return err
	}
	rows := out.Results
	if p := c.String("jobs-out"); p != "" {
		if err := reports.WriteJobs(p, out.Jobs); err != nil {
			return err
		}
	}
	if p := c.String("ops-out"); p != "" {
		if err := reports.WriteOps(p, out.Ops); err != nil {
			return err
		}
	}
	if p := c.String("summary-out"); p != "" {
		if err := reports.WriteResults(p, rows); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		return reports.WriteResultsJSON(c.App.Writer, rows)
	}
	return reports.WriteResultsTable(c.App.Writer, rows, datasets.HasDeadlines(ds.Instances))
}

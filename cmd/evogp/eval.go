package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
)

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "simulate several schedulers on every instance of a dataset and write tables, a summary and figures",
		UsageText: "evogp eval --dataset DIR --out DIR [--schedulers LIST] [options]\n\n" +
			"Examples:\n" +
			"   evogp eval --dataset data/test --out out/eval\n" +
			"   evogp eval --dataset data/test --schedulers spark,liquid,tiresias,lyra,gp=runs/quick/best.json,mine=\"g*d+q\" --out out/eval --format png,svg,pdf\n" +
			"   evogp eval --dataset data/test --schedulers liquid,tiresias,lyra,gp=runs/quick,evo-fifo,evo-srsf,evo-lyra,evo-gp=runs/quick \\\n" +
			"        --evo-population 20 --evo-generations 20 --ops-out out/eval/ops.parquet --out out/eval\n" +
			"   evogp eval --dataset data/test --out /shared/eval --launcher slurm --time 1:00:00   # a Slurm task per instance; then evogp collect /shared/eval",
		Description: experiment.EvalHelp(),
		Flags: withFlags([]cli.Flag{
			&cli.StringFlag{Name: "dataset", Required: true, Usage: "dataset directory (Parquet or CSV)"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "output directory"},
			&cli.StringFlag{Name: "schedulers", Value: strings.Join(experiment.Baselines(), ","), Usage: "comma-separated scheduler entries (see the description)"},
			&cli.StringFlag{Name: "format", Value: "png,svg", Usage: "figure formats: png, svg, pdf"},
			&cli.StringFlag{Name: "reference", Value: reports.DefaultReference, Usage: "scheduler label that normalises objectives in the summary"},
			&cli.StringFlag{Name: "best-baseline", Usage: "the baseline to compare with, chosen on other data (default: the one a learner run among the schedulers chose on its validation set, else the lowest mean normalised objective here, which the summary then says)"},
			&cli.StringFlag{Name: "instance", Usage: "instance for the per-instance figures (default: the first)"},
			reportInstancesFlag(),
			&cli.IntFlag{Name: "workers", Usage: "simulations in parallel (0 = all cores)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
			&cli.BoolFlag{Name: "force", Usage: "replace an earlier evogp output directory at --out"},
			&cli.StringSliceFlag{Name: "instances", Usage: "evaluate only these instances (by name; repeat or comma-separate)"},
			&cli.StringFlag{Name: "ops-out", Usage: "write the EVO operation log to PATH (.parquet or .csv; OUT/ops.parquet keeps it in the output directory)"},
		}, simFlags(), evoFlags(true), estimatesFlags(), flagSet{flags: launcherFlags()}),
		Action: runEval,
	}
}

func runEval(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (flags only; see evogp %s --help)", c.Command.Name, c.Args().First(), c.Command.Name)
	}
	sim, err := experiment.SimSettingsOverridden(configs.Default(), simFlags().overrides(c))
	if err != nil {
		return err
	}
	seconds, err := experiment.TimeUnitSeconds(c.String("time-unit"))
	if err != nil {
		return err
	}
	settings := experiment.EvalSettings{
		EstimatesSeed: c.Uint64("estimates-seed"), EstimatesReuse: c.Bool("estimates-reuse"),
		Dataset: c.String("dataset"), Sim: sim, TimeUnit: c.String("time-unit"),
		Figures: experiment.FigureOptions{Instance: c.String("instance"),
			Reference: c.String("reference"), RequireReference: c.IsSet("reference"), ReportInstances: c.Int("report-instances"),
			BestBaseline: c.String("best-baseline")},
		Instances: c.StringSlice("instances"),
		Workers:   c.Int("workers"), Out: c.String("out"), OpsOut: c.String("ops-out"), Force: c.Bool("force"),
		Progress:   progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")},
		Provenance: provenance(c),
	}
	return experiment.RunEval(c.Context, experiment.EvalCommand{Settings: settings,
		Formats: c.String("format"), Schedulers: c.String("schedulers"), EstimatesSource: c.String("estimates"),
		Builder: func() (experiment.PolicyBuilder, error) {
			return experiment.OverriddenPolicyBuilder(configs.Default(), evoFlags(true).overrides(c), seconds, c.IsSet("time-unit"))
		},
		Launcher: func() (string, bool, error) {
			o := launchOptions(c)
			return o.Launcher, o.Launcher == experiment.LauncherLocal, experiment.CheckLauncher(c.Command.Name, o)
		},
		// launcher is --launcher, which launchOptions holds.
		Launch: func(string) error {
			return experiment.Launch(c.Context, c.String("out"), launchOptions(c), c.App.Writer)
		}, Given: c.IsSet}, c.App.Writer)
}

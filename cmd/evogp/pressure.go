package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

func pressureCommand() *cli.Command {
	return &cli.Command{
		Name:  "pressure",
		Usage: "compare schedulers under load pressure: objective against the inter-arrival interval (paper Fig. 9a)",
		UsageText: "evogp pressure --out DIR [--config load] [--schedulers LIST] [--intervals 60,120,...] [--seeds N] [--jobs N] [options]\n\n" +
			"Examples:\n" +
			"   evogp pressure --config load --out out/pressure\n" +
			"   evogp pressure --config load --schedulers spark,liquid,tiresias,lyra,gp=runs/quick --seeds 3 --out out/pressure\n" +
			"   evogp pressure --config load --schedulers liquid,tiresias,evo-fifo,evo-srsf --evo-generations 50 --out out/ablation   # Fig. 11a",
		Description: experiment.PressureHelp,
		Flags: withFlags([]cli.Flag{
			&cli.StringFlag{Name: "config", Value: "load", Usage: "embedded config name or YAML file"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "output directory"},
			&cli.StringFlag{Name: "schedulers", Value: strings.Join(experiment.Baselines(), ","), Usage: "comma-separated scheduler entries (as in eval)"},
			&cli.StringFlag{Name: "format", Value: "png,svg", Usage: "figure formats: png, svg, pdf"},
			&cli.IntFlag{Name: "workers", Usage: "simulations in parallel (0 = all cores)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
			&cli.BoolFlag{Name: "force", Usage: "replace an earlier evogp output directory at --out"},
		}, pressureFlags(), simFlags(), evoFlags(false)),
		Action: runPressure,
	}
}

// pressureFlags override keys of the config's pressure section.
func pressureFlags() flagSet {
	return flagSet{flags: []cli.Flag{
		&cli.StringFlag{Name: "intervals", Usage: "pressure.intervals: comma-separated Δ in seconds"},
		&cli.IntFlag{Name: "seeds", Usage: "pressure.seeds"},
		&cli.IntFlag{Name: "jobs", Usage: "pressure.jobs (jobs per instance)"},
	}, keys: map[string]string{"intervals": "pressure.intervals", "seeds": "pressure.seeds", "jobs": "pressure.jobs"}}
}

func runPressure(c *cli.Context) error {
	return experiment.RunPressureCommand(c.Context, experiment.PressureCommand{Args: c.Args().Slice(), Config: c.String("config"),
		SimOverrides: simFlags().overrides(c), PressureOverrides: pressureFlags().overrides(c), EVOOverrides: evoFlags(true).overrides(c),
		TimeUnit: c.String("time-unit"), TimeUnitGiven: c.IsSet("time-unit"), Formats: c.String("format"), Schedulers: c.String("schedulers"),
		Workers: c.Int("workers"), Out: c.String("out"), Force: c.Bool("force"),
		Progress:   progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")},
		Provenance: provenance(c),
	}, c.App.Writer)
}

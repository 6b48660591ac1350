package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/experiment"
)

// dataCommand is `evogp data`: generate datasets and describe them.
func dataCommand() *cli.Command {
	return &cli.Command{
		Name:  "data",
		Usage: "generate and inspect datasets (Parquet or CSV instance tables)",
		UsageText: "evogp data gen --config quick --instances 50 --seed 1 --out data/train\n" +
			"   evogp data describe data/train",
		Subcommands: []*cli.Command{dataGenCommand(), dataDescribeCommand(), dataImportCommand()},
	}
}

func dataGenCommand() *cli.Command {
	return &cli.Command{
		Name:      "gen",
		Usage:     "generate a dataset with the Table II workload generator (SPEC §7)",
		ArgsUsage: "[key=value overrides]",
		UsageText: "evogp data gen --config quick --instances 50 --seed 1 --out data/train [--format parquet|csv] [--split train] [generator.nodes=10,20 ...]\n\n" +
			"   Examples:\n" +
			"   evogp data gen --config paper --split test --out data/test\n" +
			"   evogp data gen --config load --instances 5 --out data/load-60 generator.clusters=5,5 generator.nodes=40,40 generator.jobs_per_node=5 generator.interval=60\n" +
			"   evogp data gen --config my-experiment.yaml --format csv --out data/train\n\n" +
			experiment.DataGenHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "quick", Usage: "embedded config name (" + strings.Join(configs.Names(), ", ") + ") or a YAML file"},
			&cli.IntFlag{Name: "instances", DefaultText: "the config's data.<split> size", Usage: "number of instances"},
			&cli.Uint64Flag{Name: "seed", DefaultText: "the config's seed", Usage: "experiment seed"},
			&cli.StringFlag{Name: "out", Usage: "new dataset directory (must not exist or be empty; required)"},
			&cli.StringFlag{Name: "format", Value: datasets.FormatParquet, Usage: "table format: parquet or csv"},
			&cli.StringFlag{Name: "split", Value: "train", Usage: "split name recorded in dataset.yaml (train, validation, test, …)"},
		},
		Action: dataGen,
	}
}

func dataGen(c *cli.Context) error {
	overrides, err := positionalArgs(c) // flags may follow the overrides
	if err != nil {
		return err
	}
	return experiment.RunDataGenCommand(c.Context, experiment.DataGenCommand{Overrides: overrides, Config: c.String("config"),
		Instances: c.Int("instances"), InstancesGiven: c.IsSet("instances"), Seed: c.Uint64("seed"), SeedGiven: c.IsSet("seed"),
		Out: c.String("out"), Format: c.String("format"), Split: c.String("split")}, c.App.Writer)
}

func dataDescribeCommand() *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "summarise a dataset: per instance size, GPU-hours, offered load and job types",
		ArgsUsage: "DIR",
		UsageText: "evogp data describe [--json] DIR\n\n" +
			"   Example: evogp data describe data/train\n\n" +
			experiment.DataDescribeHelp,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "one JSON object per instance (JSON lines)"},
			&cli.IntFlag{Name: "types", Value: 3, Usage: "job types to list per instance in the table"},
		},
		Action: dataDescribe,
	}
}

func dataDescribe(c *cli.Context) error {
	return experiment.RunDataDescribeCommand(c.Context, experiment.DataDescribeCommand{Args: c.Args().Slice(),
		JSON: c.Bool("json"), Types: c.Int("types")}, c.App.Writer, c.App.ErrWriter)
}

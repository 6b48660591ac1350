package main

import (
	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/datasets/philly"
	"github.com/evogp/evogp/experiment"
)

// dataImportCommand is `evogp data import`: real traces into datasets.
func dataImportCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "convert a real trace into datasets (one per split)",
		UsageText:   "evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly [options]",
		Subcommands: []*cli.Command{dataImportPhillyCommand(), dataImportHydraCommand()},
	}
}

func dataImportPhillyCommand() *cli.Command {
	return &cli.Command{
		Name:  "philly",
		Usage: "import the Microsoft Philly trace (timestamp,duration,num_gpus,gpu_time,cluster)",
		UsageText: "evogp data import philly --in philly.csv --out DIR [--from D --to D] [--instance-span 24h]\n" +
			"      [--instance-stride D] [--capacity-per-instance]\n" +
			"      [--train A..B --validation A..B --test A..B] [--vcs VC,VC,...] [--vc-file F]\n" +
			"      [--capacity helios|load:RHO|VC=N,...] [--capacity-scale S] [--single-cluster --nodes N]\n" +
			"      [--gpus-per-node 8] [--priority 1] [--format parquet|csv]\n\n" +
			experiment.DataImportPhillyHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "in", Required: true, Usage: "the Philly CSV file"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "new output directory (must not exist or be empty)"},
			&cli.StringFlag{Name: "from", Usage: "keep submit times ≥ this (YYYY-MM-DD[ HH:MM:SS], UTC) (default: " + philly.DefaultFrom + ", or the first split's start)"},
			&cli.StringFlag{Name: "to", Usage: "keep submit times < this (default: " + philly.DefaultTo + ", or the last split's end)"},
			&cli.DurationFlag{Name: "instance-span", Value: philly.DefaultSpan, Usage: "length of one instance (24h: one per day, 168h: one per week)"},
			&cli.DurationFlag{Name: "instance-stride", Usage: "start an instance every D (default: the span; below it instances overlap)"},
			&cli.StringFlag{Name: "train", Usage: "train split window FROM..TO (writes DIR/train)"},
			&cli.StringFlag{Name: "validation", Usage: "validation split window FROM..TO (writes DIR/validation)"},
			&cli.StringFlag{Name: "test", Usage: "test split window FROM..TO (writes DIR/test)"},
			&cli.StringFlag{Name: "vcs", Usage: "VCs to keep, in cluster order (default: the VCs of the VC file)"},
			&cli.StringFlag{Name: "vc-file", Usage: "VC node counts (default: " + philly.DefaultVCFile + " beside --in)"},
			&cli.IntFlag{Name: "gpus-per-node", Value: philly.DefaultGPUsPerNode, Usage: "GPUs per node of every cluster"},
			&cli.StringFlag{Name: "capacity", Value: "helios", Usage: "node counts: helios, load:RHO or VC=N,VC=N"},
			&cli.Float64Flag{Name: "capacity-scale", Usage: "multiply fixed node counts (ceil), raised so every kept job fits"},
			&cli.BoolFlag{Name: "capacity-per-instance", Usage: "with load:RHO, size every instance by its own offered load"},
			&cli.BoolFlag{Name: "single-cluster", Usage: "merge the kept VCs into one cluster"},
			&cli.IntFlag{Name: "nodes", Usage: "node count of the single cluster (--single-cluster)"},
			&cli.IntFlag{Name: "priority", Value: philly.DefaultPriority, Usage: "priority u of every job (the trace has none)"},
			&cli.StringFlag{Name: "format", Value: datasets.FormatParquet, Usage: "table format: parquet or csv"},
		},
		Action: dataImportPhilly,
	}
}

func dataImportPhilly(c *cli.Context) error {
	return experiment.RunDataImportPhillyCommand(experiment.DataImportPhillyCommand{CommandLine: philly.CommandLine{
		In: c.String("in"), VCFile: c.String("vc-file"), From: c.String("from"), To: c.String("to"),
		Train: c.String("train"), Validation: c.String("validation"), Test: c.String("test"), VCs: c.String("vcs"),
		Capacity: c.String("capacity"), Scale: c.Float64("capacity-scale"), Span: c.Duration("instance-span"),
		Stride: c.Duration("instance-stride"), PerInstance: c.Bool("capacity-per-instance"),
		GPUsPerNode: c.Int("gpus-per-node"), Priority: c.Int("priority"), SingleCluster: c.Bool("single-cluster"),
		Nodes: c.Int("nodes"), Given: c.IsSet}, Out: c.String("out"), Format: c.String("format")}, c.App.Writer)
}

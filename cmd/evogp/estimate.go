package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/experiment"
)

func estimateCommand() *cli.Command {
	def := estimate.DefaultOptions()
	return &cli.Command{
		Name:  "estimate",
		Usage: "estimate training-job durations from per-iteration times (adaptive, head-based, random sampling)",
		UsageText: "evogp estimate [options] FILE|DIR\n\n" +
			"Examples:\n" +
			"   evogp estimate ../shared/traces/iteration_times/chronus/stats/imagenet_arch_resnet50_gpu_1.csv\n" +
			"   evogp estimate ../shared/traces/iteration_times/chronus\n" +
			"   evogp estimate --json ../shared/traces/iteration_times/chronus > errors.jsonl\n" +
			"   evogp estimate --plot figs ../shared/traces/iteration_times/chronus\n" +
			"   evogp estimate --cache model,gpus ../shared/traces/iteration_times/chronus",
		Description: experiment.EstimateHelp,
		ArgsUsage:   "FILE|DIR",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "methods", Value: strings.Join(estimate.Methods(), ","), Usage: "comma-separated methods: adaptive, head, random"},
			&cli.Float64Flag{Name: "gamma", Value: def.Gamma, Usage: "adaptive: stability threshold γ on δ_i = |t_i − t_{i−1}|/t_{i−1}"},
			&cli.IntFlag{Name: "k", Value: def.K, Usage: "adaptive: consecutive δ_i < γ that declare stability"},
			&cli.IntFlag{Name: "sample-iters", Value: def.SampleIters, Usage: "adaptive: iterations i_s sampled once stable"},
			&cli.IntFlag{Name: "head", Value: def.Head, Usage: "head and random: iterations h used"},
			&cli.IntFlag{Name: "prefix", Value: def.Prefix, Usage: "most leading iterations any method may observe"},
			&cli.Uint64Flag{Name: "seed", Value: def.Seed, Usage: "seed of the random method's draws"},
			&cli.StringFlag{Name: "cache", Usage: "reuse estimates of recurring jobs keyed by these fields (model,config,gpu_type,gpus or all); series in path order"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per file and method"},
			&cli.StringFlag{Name: "plot", Usage: "write the error CDF per method and one series' stability plot to DIR (png, svg)"},
			&cli.StringFlag{Name: "plot-series", Usage: "the series (file, as printed) of the stability plot; default the first"},
		},
		Action: runEstimate,
	}
}

func runEstimate(c *cli.Context) error {
	return experiment.RunEstimateCommand(c.Context, experiment.EstimateCommand{Args: c.Args().Slice(), Methods: c.String("methods"),
		Options: estimate.Options{Gamma: c.Float64("gamma"), K: c.Int("k"), SampleIters: c.Int("sample-iters"),
			Head: c.Int("head"), Prefix: c.Int("prefix"), Seed: c.Uint64("seed")},
		Cache: c.String("cache"), JSON: c.Bool("json"), Plot: c.String("plot"), PlotSeries: c.String("plot-series")}, c.App.Writer, c.App.ErrWriter)
}

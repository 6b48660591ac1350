package main

import (
	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment/tradeoff"
	"github.com/evogp/evogp/reports"
)

// figureCommand groups the paper figures drawn from finished studies.
func figureCommand() *cli.Command {
	return &cli.Command{
		Name:        "figure",
		Usage:       "draw a paper figure from finished studies (tradeoff: AvgJCT against MaxQT of ω sweeps)",
		Subcommands: []*cli.Command{figureTradeoffCommand()},
	}
}

func figureTradeoffCommand() *cli.Command {
	return &cli.Command{
		Name:      "tradeoff",
		Usage:     "the test-set AvgJCT–MaxQT figure and LaTeX formula table of one or more ω sweeps",
		ArgsUsage: "SWEEP_DIR...",
		UsageText: "evogp figure tradeoff SWEEP_DIR... [--out DIR] [--format png,svg,pdf] [--standalone]\n\n" +
			"Examples:\n" +
			"   evogp learn -m --config quick objective.kind=single objective.omega=0,0.25,0.5,0.75,1 seed=1,2,3 --out sweeps/omega\n" +
			"   evogp figure tradeoff sweeps/omega --out paper/\n" +
			"   evogp figure tradeoff sweeps/a sweeps/b --format pdf --standalone   # two sweeps' seeds pooled",
		Description: tradeoff.Help,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "output directory (default: the first SWEEP_DIR)"},
			&cli.StringFlag{Name: "format", Value: "png,svg", Usage: "figure formats: png, svg, pdf"},
			&cli.BoolFlag{Name: "standalone", Usage: "write the table as a LaTeX document that compiles alone"},
		},
		Action: func(c *cli.Context) error {
			dirs, err := positionalArgs(c)
			if err != nil {
				return err
			}
			formats, err := reports.ParseFormats(c.String("format"))
			if err != nil {
				return err
			}
			return tradeoff.Run(c.Context, tradeoff.Options{Dirs: dirs, Out: c.String("out"), Formats: formats, Standalone: c.Bool("standalone")}, c.App.Writer)
		},
	}
}

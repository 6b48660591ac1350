package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment/tradeoff"
	"github.com/evogp/evogp/reports"
)

// figureCommand groups the paper figures drawn from finished studies.
func figureCommand() *cli.Command {
	return &cli.Command{
		Name:        "figure",
		Usage:       "draw a paper figure from finished studies (tradeoff: AvgJCT against MaxQT of ω sweeps or fronts)",
		Subcommands: []*cli.Command{figureTradeoffCommand()},
	}
}

func figureTradeoffCommand() *cli.Command {
	return &cli.Command{
		Name:      "tradeoff",
		Usage:     "the test-set AvgJCT–MaxQT figure and LaTeX formula table of one or more ω sweeps or fronts",
		ArgsUsage: "DIR...",
		UsageText: "evogp figure tradeoff DIR... [--out DIR] [--format png,svg,pdf] [--standalone] [--omegas 0,0.25,...]\n\n" +
			"Examples:\n" +
			"   evogp learn -m --config quick objective.kind=single objective.omega=0,0.25,0.5,0.75,1 seed=1,2,3 --out sweeps/omega\n" +
			"   evogp figure tradeoff sweeps/omega --out paper/\n" +
			"   evogp figure tradeoff sweeps/a sweeps/b --format pdf --standalone   # two sweeps' seeds pooled\n" +
			"   evogp eval --dataset data/test --objective single --schedulers spark,liquid,tiresias,lyra,f1=runs/front-s1,f2=runs/front-s2 --out evals/front\n" +
			"   evogp figure tradeoff evals/front   # the fronts of two seeds, picked per ω on validation",
		Description: tradeoff.Help,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "output directory (default: the first DIR)"},
			&cli.StringFlag{Name: "omegas", Value: "0,0.25,0.5,0.75,1", Usage: "for fronts: the ω at which a member is picked on validation"},
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
			omegas, err := parseOmegas(c.String("omegas"))
			if err != nil {
				return err
			}
			return tradeoff.Run(c.Context, tradeoff.Options{Dirs: dirs, Out: c.String("out"), Formats: formats, Standalone: c.Bool("standalone"), Omegas: omegas}, c.App.Writer)
		},
	}
}

// parseOmegas reads --omegas: comma-separated weights in [0, 1].
func parseOmegas(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		w, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(w >= 0 && w <= 1) {
			return nil, fmt.Errorf("--omegas: %q is not a weight in [0, 1]", f)
		}
		out = append(out, w)
	}
	return out, nil
}

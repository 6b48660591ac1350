package main

import (
	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/cliargs"
	"github.com/evogp/evogp/reports"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "redraw the summary and figures of eval, pressure or learn output directories from their tables",
		ArgsUsage: "DIR...",
		UsageText: "evogp report DIR... [--format png,svg,pdf] [--instance NAME] [--reference NAME]\n\n" +
			"Examples:\n" +
			"   evogp report out/eval\n" +
			"   evogp report runs/quick out/eval out/pressure --format png,svg,pdf",
		Description: experiment.RedrawHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "png,svg", Usage: "figure formats: png, svg, pdf"},
			&cli.StringFlag{Name: "instance", Usage: "instance for the per-instance figures (default: the first)"},
			&cli.StringFlag{Name: "reference", Value: reports.DefaultReference, Usage: "scheduler that normalises objectives in the summary"},
			reportInstancesFlag(),
		},
		Action: runReport,
	}
}

func runReport(c *cli.Context) error {
	dirs, err := positionalArgs(c)
	if err != nil {
		return err
	}
	return experiment.Redraw(c.Context, experiment.RedrawOptions{Dirs: dirs, Formats: c.String("format"),
		Instance: c.String("instance"), InstanceGiven: c.IsSet("instance"),
		Reference: c.String("reference"), ReferenceGiven: c.IsSet("reference"),
		ReportInstances: c.Int("report-instances")}, c.App.Writer)
}

// reportInstancesFlag is --report-instances of eval and report.
func reportInstancesFlag() cli.Flag {
	return &cli.IntFlag{Name: "report-instances", Value: experiment.DefaultReportInstances,
		Usage: "report.html: give every instance its own figures up to this many instances (beyond it, only the instance the figures draw)"}
}

// positionalArgs returns the positional arguments of c and applies any of
// the command's flags written after them: urfave/cli stops parsing flags at
// the first positional argument, but `evogp report DIR --format svg` is
// what people type (see cliargs.ApplyTrailing).
func positionalArgs(c *cli.Context) ([]string, error) {
	return trailingFlags(c, c.Args().Slice(), cliargs.IsDashWord)
}

// trailingFlags applies the words of args that isFlag accepts as c's flags
// and returns the other words (cliargs.ApplyTrailing).
func trailingFlags(c *cli.Context, args []string, isFlag func(string) bool) ([]string, error) {
	isBool := map[string]bool{}
	for _, f := range c.Command.Flags {
		_, b := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			isBool[n] = b
		}
	}
	return cliargs.ApplyTrailing(c.Command.Name, args, isBool, isFlag, c.Set)
}

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/signalrun"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// run runs the program with args (program name first) and returns its exit
// status: 0 on success, 1 on an error, and after Ctrl-C or SIGTERM — once
// the command has stopped cleanly, with its checkpoint written — the
// shell's convention 128 + the signal number: 130 for SIGINT, 143 for
// SIGTERM. A second signal ends the program at once.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	app := newApp()
	app.Writer, app.ErrWriter = stdout, stderr
	setInvocation(app, args, time.Now())
	sig, err := signalrun.Run(ctx, func(ctx context.Context) error { return app.RunContext(ctx, args) })
	if err != nil {
		fmt.Fprintln(stderr, "evogp:", err)
	}
	return signalrun.ExitCode(err, sig)
}

// setInvocation records the command line and start time that every output
// directory's provenance reports.
func setInvocation(app *cli.App, args []string, start time.Time) {
	if app.Metadata == nil {
		app.Metadata = map[string]any{}
	}
	app.Metadata["args"] = append([]string(nil), args...)
	app.Metadata["start"] = start
}

// provenance describes this invocation (see experiment.Provenance).
func provenance(c *cli.Context) experiment.Provenance {
	args, _ := c.App.Metadata["args"].([]string)
	start, ok := c.App.Metadata["start"].(time.Time)
	if !ok {
		start = time.Now()
	}
	return experiment.NewProvenance(args, start)
}

// newApp builds the command tree. Each command lives in its own file and is
// added here with one line.
func newApp() *cli.App {
	app := &cli.App{
		Name:    "evogp",
		Usage:   "learn GPU-cluster scheduling policies by genetic programming",
		Version: experiment.NewProvenance(nil, time.Time{}).VersionString(),
		Description: "Examples:\n" +
			"   evogp learn                                   # the main job: learn a policy on the quick config\n" +
			"   evogp data gen --config quick --instances 10 --seed 1 --out data/train\n" +
			"   evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly\n" +
			"   evogp simulate --dataset data/train --scheduler tiresias\n" +
			"   evogp eval --dataset data/test --schedulers spark,liquid,tiresias,lyra,gp=runs/X/best.json --out eval",
		EnableBashCompletion: true,
		Flags:                profileFlags(),
		Before:               startProfiles,
		After:                stopProfiles,
		Commands: []*cli.Command{
			// commands: one line each
			learnCommand(),
			evalCommand(),
			reportCommand(),
			figureCommand(),
			pressureCommand(),
			exportCommand(),
			exprCommand(),
			dataCommand(),
			simulateCommand(),
			estimateCommand(),
			searchCommand(),
			completionCommand(),
			manCommand(),
			taskCommand(),
			statusCommand(),
			collectCommand(),
			deployCommand(),
		},
	}
	completeFlagValues(app.Commands)
	return app
}

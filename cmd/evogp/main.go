// Command evogp learns scheduling policies for deep-learning training jobs on
// GPU clusters by genetic programming, and simulates, evaluates and reports
// them. Run `evogp --help` for the commands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newApp().RunContext(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "evogp:", err)
		os.Exit(1)
	}
}

// newApp builds the command tree. Each command lives in its own file and is
// added here with one line.
func newApp() *cli.App {
	return &cli.App{
		Name:  "evogp",
		Usage: "learn GPU-cluster scheduling policies by genetic programming",
		Description: "Examples:\n" +
			"   evogp learn                                   # the main job: learn a policy on the quick config\n" +
			"   evogp data gen --config quick --instances 10 --seed 1 --out data/train\n" +
			"   evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly\n" +
			"   evogp simulate --dataset data/train --scheduler tiresias\n" +
			"   evogp eval --dataset data/test --schedulers spark,liquid,tiresias,lyra,gp=runs/X/best.json --out eval",
		Commands: []*cli.Command{
			// commands: one line each
			learnCommand(),
			evalCommand(),
			reportCommand(),
			pressureCommand(),
			exportCommand(),
			exprCommand(),
			dataCommand(),
			simulateCommand(),
			estimateCommand(),
			searchCommand(),
		},
	}
}

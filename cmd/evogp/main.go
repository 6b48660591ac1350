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
		Description: "Example:\n" +
			"   evogp data gen --config quick --instances 10 --seed 1 --out data/train\n" +
			"   evogp simulate --dataset data/train --scheduler tiresias",
		Commands: []*cli.Command{
			// commands: one line each
			evalCommand(),
			reportCommand(),
			pressureCommand(),
			exportCommand(),
			learnCommand(),
			dataCommand(),
			exprCommand(),
		},
	}
}

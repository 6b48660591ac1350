package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/simcore"
)

// estimatesFlags are the flags that choose the job durations schedulers see
// (SPEC §14). A command adds them to its flags and calls applyEstimates on
// the instances it simulates.
func estimatesFlags() flagSet {
	return flagSet{flags: []cli.Flag{
		&cli.StringFlag{Name: "estimates", Value: "none", Usage: "durations schedulers see: none (the truth) | column (the dataset's estimate column) | " +
			"noise:lognormal:SIGMA | noise:uniform:A (d̂ = d·f) | empirical:METHOD:DIR (f = 1 + an error of METHOD on the series in DIR)"},
		&cli.Uint64Flag{Name: "estimates-seed", Value: 1, Usage: "seed of the estimate draws (per instance: PCG(seed, instance name))"},
		&cli.BoolFlag{Name: "estimates-reuse", Usage: "recurring jobs (same name, GPU type, GPU count) reuse the first one's estimate error"},
	}}
}

// applyEstimates sets Job.Estimate on every instance as the estimates
// flags say. none clears any estimate; column keeps the dataset's and fails
// when no job has one; the error models draw d̂ = max(1, round(d·f)).
func applyEstimates(c *cli.Context, insts []simcore.Instance) error {
	src, err := experiment.ParseEstimateSource(c.String("estimates"))
	if err != nil {
		return err
	}
	summary, err := experiment.FillEstimates(c.Context, src, c.Uint64("estimates-seed"), c.Bool("estimates-reuse"), insts)
	if err != nil {
		return err
	}
	if summary != "" && !c.Bool("quiet") {
		fmt.Fprintln(c.App.ErrWriter, summary)
	}
	return nil
}

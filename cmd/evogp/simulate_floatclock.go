package main

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/hydra"
)

// clockFlag selects the simulator's time model: the engine's integer
// seconds (default) or Hydra's float clock for sjf-fastest on Hydra-model
// instances (hydra.FloatClockSJFFastest), which reproduces the figures of
// Hydra's own simulator.
func clockFlag() cli.Flag {
	return &cli.StringFlag{Name: "clock", Value: "engine", Usage: "time model: engine (integer seconds) | hydra-float (Hydra's float clock with steps ≥ 1 s and later-row ties; scheduler sjf-fastest only, prints avg JCT, tardiness and misses in seconds)"}
}

// floatClockRow is one instance's result under the float clock.
type floatClockRow struct {
	Instance       string  `json:"instance"`
	Jobs           int     `json:"jobs"`
	AvgJCT         float64 `json:"avg_jct_s"`
	TotalTardiness float64 `json:"total_tardiness_s"`
	DeadlineMisses int     `json:"deadline_misses"`
}

// runFloatClock simulates every instance of ds with Hydra's float clock
// and prints one row per instance; nothing is printed on an error.
func runFloatClock(c *cli.Context, ds *datasets.Dataset) error {
	if s := c.String("scheduler"); s != "sjf-fastest" {
		return fmt.Errorf("--clock hydra-float: scheduler %q: only sjf-fastest has a float-clock model", s)
	}
	for _, f := range []string{"jobs-out", "ops-out", "summary-out", "backfill", "trigger"} {
		if c.IsSet(f) {
			return fmt.Errorf("--clock hydra-float: --%s does not apply (the float clock has its own operation rule and prints its metrics)", f)
		}
	}
	rows := make([]floatClockRow, 0, len(ds.Instances))
	for i := range ds.Instances {
		inst := &ds.Instances[i]
		r, err := hydra.FloatClockSJFFastest(c.Context, inst)
		if err != nil {
			return fmt.Errorf("instance %s: %w", inst.Name, err)
		}
		rows = append(rows, floatClockRow{Instance: inst.Name, Jobs: len(inst.Jobs), AvgJCT: r.AvgJCT, TotalTardiness: r.TotalTardiness, DeadlineMisses: r.Misses})
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	fmt.Fprintf(c.App.Writer, "scheduler: sjf-fastest (hydra-float clock)\n%20s %6s %14s %18s %8s\n", "instance", "jobs", "avg_jct s", "total_tardiness s", "misses")
	for _, r := range rows {
		fmt.Fprintf(c.App.Writer, "%20s %6d %14.4f %18.4f %8d\n", r.Instance, r.Jobs, r.AvgJCT, r.TotalTardiness, r.DeadlineMisses)
	}
	return nil
}

package main

import "github.com/urfave/cli/v2"

// clockFlag selects the simulator's time model: the engine's integer
// seconds (default) or Hydra's float clock for sjf-fastest on Hydra-model
// instances (experiment.FloatClock), which reproduces the figures of
// Hydra's own simulator.
func clockFlag() cli.Flag {
	return &cli.StringFlag{Name: "clock", Value: "engine", Usage: "time model: engine (integer seconds) | hydra-float (Hydra's float clock with steps ≥ 1 s and later-row ties; scheduler sjf-fastest only, prints avg JCT, tardiness and misses in seconds)"}
}

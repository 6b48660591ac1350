package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/internal/profiling"
)

// profileFlags are the global flags that write Go profiles of any command,
// for `go tool pprof`: a CPU profile of the whole command and a heap
// profile of what is live when it ends.
func profileFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the command to `FILE` (go tool pprof)"},
		&cli.StringFlag{Name: "memprofile", Usage: "write a heap profile, taken when the command ends, to `FILE`"},
	}
}

// cpuProfileKey is where the running CPU profile is kept in the
// app's metadata between startProfiles and stopProfiles.
const cpuProfileKey = "cpuprofile"

// startProfiles starts the CPU profile if --cpuprofile is set (see
// profiling.StartCPU).
func startProfiles(c *cli.Context) error {
	if c.String("cpuprofile") == "" {
		return nil
	}
	p, err := profiling.StartCPU()
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	c.App.Metadata[cpuProfileKey] = p
	return nil
}

// stopProfiles stops the CPU profile and writes the profiles asked for.
func stopProfiles(c *cli.Context) error {
	var errs []error
	if p, ok := c.App.Metadata[cpuProfileKey].(*profiling.CPU); ok {
		delete(c.App.Metadata, cpuProfileKey)
		if err := p.Stop(c.String("cpuprofile")); err != nil {
			errs = append(errs, fmt.Errorf("--cpuprofile: %w", err))
		}
	}
	if path := c.String("memprofile"); path != "" {
		if err := profiling.WriteHeap(path); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile: %w", err))
		}
	}
	return errors.Join(errs...)
}

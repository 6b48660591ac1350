package main

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"runtime/pprof"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/internal/atomicio"
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

// cpuProfileKey is where the running CPU profile's buffer is kept in the
// app's metadata between startProfiles and stopProfiles.
const cpuProfileKey = "cpuprofile"

// startProfiles starts the CPU profile if --cpuprofile is set. The profile
// is buffered in memory and written atomically when the command ends, so
// an interrupted command leaves a complete profile or none.
func startProfiles(c *cli.Context) error {
	if c.String("cpuprofile") == "" {
		return nil
	}
	buf := new(bytes.Buffer)
	if err := pprof.StartCPUProfile(buf); err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	c.App.Metadata[cpuProfileKey] = buf
	return nil
}

// stopProfiles stops the CPU profile and writes the profiles asked for.
func stopProfiles(c *cli.Context) error {
	var errs []error
	if buf, ok := c.App.Metadata[cpuProfileKey].(*bytes.Buffer); ok {
		pprof.StopCPUProfile()
		delete(c.App.Metadata, cpuProfileKey)
		if err := atomicio.WriteBytes(c.String("cpuprofile"), buf.Bytes()); err != nil {
			errs = append(errs, fmt.Errorf("--cpuprofile: %w", err))
		}
	}
	if path := c.String("memprofile"); path != "" {
		runtime.GC() // the heap profile shows what is live now
		var buf bytes.Buffer
		if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile: %w", err))
		} else if err := atomicio.WriteBytes(path, buf.Bytes()); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile: %w", err))
		}
	}
	return errors.Join(errs...)
}

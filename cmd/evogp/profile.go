package main

import (
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

// profilesKey is where the command's profiling session is kept in the
// app's metadata between startProfiles and stopProfiles.
const profilesKey = "profiles"

// startProfiles starts the profiles that --cpuprofile and --memprofile ask for.
func startProfiles(c *cli.Context) error {
	s := &profiling.Session{CPUPath: c.String("cpuprofile"), HeapPath: c.String("memprofile"), CPUName: "--cpuprofile", HeapName: "--memprofile"}
	c.App.Metadata[profilesKey] = s
	return s.Start()
}

// stopProfiles stops the CPU profile and writes the profiles asked for.
func stopProfiles(c *cli.Context) error {
	s, ok := c.App.Metadata[profilesKey].(*profiling.Session)
	if !ok {
		return nil
	}
	delete(c.App.Metadata, profilesKey)
	return s.Stop()
}

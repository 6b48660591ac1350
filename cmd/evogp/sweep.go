package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

// runSweep is `evogp learn -m`: the sweep over the key=v1,v2 arguments
// (see experiment.Sweep).
func runSweep(c *cli.Context, args []string) error {
	for _, f := range []string{"resume", "train", "validation"} {
		if c.IsSet(f) {
			return fmt.Errorf("learn -m: --%s is not supported in a sweep (set data.train_dir / data.validation_dir as overrides)", f)
		}
	}
	fixed, axes, err := experiment.ParseSweepArgs(args)
	if err != nil {
		return err
	}
	spec := experiment.SweepSpec{Config: c.String("config"), Fixed: fixed, Axes: axes}
	dir := c.String("out")
	if dir == "" {
		name := strings.TrimSuffix(filepath.Base(spec.Config), filepath.Ext(spec.Config))
		dir = experiment.FreshDir(filepath.Join("runs", "sweep-"+name+"-"+time.Now().UTC().Format("20060102T150405Z")))
	}
	if c.Int("jobs") < 1 {
		return fmt.Errorf("learn -m: --jobs %d: must be ≥ 1", c.Int("jobs"))
	}
	launcher, err := checkLauncher(c)
	if err != nil {
		return err
	}
	if launcher != launcherLocal {
		if c.IsSet("jobs") {
			return fmt.Errorf("learn -m: --jobs applies to --launcher local; with --launcher %s, --throttle sets how many tasks run at once", launcher)
		}
		if _, err := experiment.PrepareSweep(dir, spec, provenance(c)); err != nil {
			return err
		}
		return launch(c, launcher, dir)
	}
	rows, err := experiment.Sweep(c.Context, experiment.SweepSettings{Spec: spec, Dir: dir, Jobs: c.Int("jobs"),
		Progress: progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")}, Provenance: provenance(c)})
	if !c.IsSet("out") {
		linkLatest(c, dir)
	}
	if err != nil {
		return err
	}
	lines, err := experiment.SweepLines(dir, rows)
	if err != nil {
		return err
	}
	if err := experiment.WriteSweepTable(c.App.Writer, lines); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "sweep directory: %s (evogp report %s draws the trade-off)\n", dir, dir)
	return nil
}

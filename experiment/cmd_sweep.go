package experiment

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// RunSweepCommand runs `evogp learn -m`: the sweep over the key=v1,v2
// arguments (see Sweep) here, or prepared as a task directory and handed
// to the Slurm or k8s launcher (PrepareSweep, Launch). It writes the sweep
// table or the launcher's messages to w and warnings to errw.
func RunSweepCommand(ctx context.Context, o LearnCommand, w, errw io.Writer) error {
	for _, f := range []string{"resume", "train", "validation"} {
		if o.given(f) {
			return fmt.Errorf("learn -m: --%s is not supported in a sweep (set data.train_dir / data.validation_dir as overrides)", f)
		}
	}
	fixed, axes, err := ParseSweepArgs(o.Overrides)
	if err != nil {
		return err
	}
	spec := SweepSpec{Config: o.Config, Fixed: fixed, Axes: axes}
	dir := o.Out
	if dir == "" {
		name := strings.TrimSuffix(filepath.Base(spec.Config), filepath.Ext(spec.Config))
		dir = FreshDir(filepath.Join("runs", "sweep-"+name+"-"+o.Now.UTC().Format("20060102T150405Z")))
	}
	if o.Jobs < 1 {
		return fmt.Errorf("learn -m: --jobs %d: must be ≥ 1", o.Jobs)
	}
	if err := CheckLauncher("learn", o.Launch); err != nil {
		return err
	}
	if o.Launch.Launcher != LauncherLocal {
		if o.given("jobs") {
			return fmt.Errorf("learn -m: --jobs applies to --launcher local; with --launcher %s, --throttle sets how many tasks run at once", o.Launch.Launcher)
		}
		if _, err := PrepareSweep(dir, spec, o.Provenance); err != nil {
			return err
		}
		return Launch(ctx, dir, o.Launch, w)
	}
	rows, err := Sweep(ctx, SweepSettings{Spec: spec, Dir: dir, Jobs: o.Jobs, Progress: o.Progress, Provenance: o.Provenance})
	if !o.given("out") {
		linkLatestOrWarn(dir, errw)
	}
	if err != nil {
		return err
	}
	lines, err := SweepLines(dir, rows)
	if err != nil {
		return err
	}
	if err := WriteSweepTable(w, lines); err != nil {
		return err
	}
	fmt.Fprintf(w, "sweep directory: %s (evogp report %s draws the trade-off)\n", dir, dir)
	return nil
}

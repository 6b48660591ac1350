package experiment

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
)

// PressureCommand is what `evogp pressure` was given.
type PressureCommand struct {
	Args   []string // the positional arguments: none is allowed
	Config string   // embedded config name or YAML file (configs.Load)
	// The overrides (key=value) of the flags given: the simulator and
	// objective keys, the pressure section's and the evo section's. The
	// config supplies every key not overridden.
	SimOverrides, PressureOverrides, EVOOverrides []string
	// TimeUnit is --time-unit (TimeUnitSeconds) when TimeUnitGiven, else
	// the config's gp.time_unit is the unit of formulas.
	TimeUnit      string
	TimeUnitGiven bool
	Formats       string // figure formats (reports.ParseFormats)
	Schedulers    string // scheduler entries (PolicyBuilder.Policies)
	Workers       int
	Out           string
	Force         bool
	Progress      progress.Options
	Provenance    Provenance
}

// RunPressureCommand loads o's config, applies its overrides, builds its
// schedulers, runs the load-pressure study (see Pressure) and writes to w
// what it wrote: the output directory, the size of the study and the
// files.
func RunPressureCommand(ctx context.Context, o PressureCommand, w io.Writer) error {
	if len(o.Args) > 0 {
		return fmt.Errorf("pressure: unexpected argument %q (flags only; see evogp pressure --help)", o.Args[0])
	}
	cfg, err := configs.Load(o.Config)
	if err != nil {
		return err
	}
	// The simulator and objective settings come from the config, each
	// overridden by its flag when the flag is given.
	sim, err := SimSettingsOverridden(cfg, o.SimOverrides)
	if err != nil {
		return err
	}
	seconds := cfg.GP.TimeUnit == "seconds"
	if o.TimeUnitGiven {
		if seconds, err = TimeUnitSeconds(o.TimeUnit); err != nil {
			return err
		}
	}
	formats, err := reports.ParseFormats(o.Formats)
	if err != nil {
		return err
	}
	if cfg, err = cfg.Override(o.PressureOverrides...); err != nil {
		return err
	}
	b, err := OverriddenPolicyBuilder(cfg, o.EVOOverrides, seconds, o.TimeUnitGiven)
	if err != nil {
		return err
	}
	policies, err := b.Policies(o.Schedulers)
	if err != nil {
		return err
	}
	s := PressureSettings{ConfigName: o.Config, Config: cfg, Sim: sim, Policies: policies, Formats: formats,
		Workers: o.Workers, Out: o.Out, Force: o.Force, Progress: o.Progress, Provenance: o.Provenance}
	files, err := Pressure(ctx, s)
	if err != nil {
		return err
	}
	p := s.Config.Pressure
	fmt.Fprintf(w, "wrote %s: %d schedulers × %d intervals × %d seeds, %s\n", s.Out, len(s.Policies), len(p.Intervals), p.Seeds, strings.Join(files, ", "))
	return nil
}

// PressureHelp is the description of `evogp pressure`: the instances the
// study generates, where its settings come from and what its output
// directory holds.
const PressureHelp = "Uses the config's pressure section (paper §IV-D: clusters × nodes of the generator's\n" +
	"GPUs per node, uniform arrivals). For every interval Δ and seed k = 1..seeds one instance\n" +
	"is generated with the Table II generator (one job every Δ seconds for the whole instance,\n" +
	"round(jobs/clusters) jobs per cluster); instance k has the same jobs at every Δ, so the\n" +
	"intervals differ only in load. Every scheduler runs on every instance. The simulator and\n" +
	"objective settings come from the config's sim and objective sections unless the flags\n" +
	"below are given. The output\n" +
	"directory gets pressure.parquet, the pressure figure and " + MarkerFile + "; an earlier evogp\n" +
	"output directory is replaced only with --force.\n" +
	"Scheduler entries are as in evogp eval. The evo allocator takes the config's evo section (and its\n" +
	"seed), each key overridden by its --evo-* flag when given; with EVO schedulers beside their MCT\n" +
	"counterparts the pressure figure is the allocation ablation of paper Fig. 11a."

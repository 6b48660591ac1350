package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

// RunPressureCommand checks its input in the order the command always
// did (arguments, config, simulator overrides, time unit, formats,
// pressure overrides, evo overrides, schedulers), so with several bad
// inputs the first one's error is the one reported; nothing is printed
// and no output directory appears.
func TestRunPressureCommandErrors(t *testing.T) {
	ok := func(out string) experiment.PressureCommand {
		return experiment.PressureCommand{Config: "load", Formats: "svg", Schedulers: "spark", Out: out,
			Progress: progress.Options{Quiet: true}}
	}
	for _, tc := range []struct {
		edit func(*experiment.PressureCommand)
		err  string
	}{
		{func(o *experiment.PressureCommand) { o.Args = []string{"extra"}; o.Config = "nope" },
			`pressure: unexpected argument "extra" (flags only; see evogp pressure --help)`},
		{func(o *experiment.PressureCommand) { o.Config = "nope"; o.SimOverrides = []string{"sim.backfill=bad"} }, `"nope"`},
		{func(o *experiment.PressureCommand) {
			o.SimOverrides = []string{"sim.backfill=bad"}
			o.TimeUnit, o.TimeUnitGiven = "minutes", true
		}, "sim.backfill"},
		{func(o *experiment.PressureCommand) { o.TimeUnit, o.TimeUnitGiven = "minutes", true; o.Formats = "gif" },
			`time-unit "minutes": want hours or seconds`},
		{func(o *experiment.PressureCommand) { o.TimeUnit = "minutes"; o.Formats = "gif" }, `format "gif"`},
		{func(o *experiment.PressureCommand) {
			o.PressureOverrides = []string{"pressure.intervals=a"}
			o.EVOOverrides = []string{"evo.population=1"}
		}, "pressure.intervals"},
		{func(o *experiment.PressureCommand) {
			o.EVOOverrides = []string{"evo.population=1"}
			o.Schedulers = "nope"
		},
			"evo.population"},
		{func(o *experiment.PressureCommand) { o.Schedulers = "nope" }, `unknown scheduler "nope"`},
	} {
		out := filepath.Join(t.TempDir(), "pressure")
		o := ok(out)
		tc.edit(&o)
		var w bytes.Buffer
		err := experiment.RunPressureCommand(context.Background(), o, &w)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("error %v, want %q", err, tc.err)
		}
		if w.Len() > 0 {
			t.Errorf("%q: printed %q", tc.err, w.String())
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%q: %s exists", tc.err, out)
		}
	}
}

package experiment

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// EvalCommand is what `evogp eval` runs: Settings here (Local), or its
// tasks prepared in Settings.Out and submitted by Launch.
type EvalCommand struct {
	Settings EvalSettings
	// Local runs the evaluation here; otherwise Launcher names the
	// launcher that Launch submits the prepared tasks with.
	Local    bool
	Launcher string
	Launch   func() error
	// Given reports whether a flag was given, for the flags that apply to
	// one kind of launcher only; nil means none was.
	Given func(flag string) bool
}

// RunEval runs o: locally it evaluates (Eval), prints the
// summary table of Settings.Out against Settings.Figures.Reference and a
// line naming what was written, to w; otherwise it refuses
// the local-only flags, prepares the tasks (PrepareEval) and calls
// o.Launch.
func RunEval(ctx context.Context, o EvalCommand, w io.Writer) error {
	s := o.Settings
	given := func(flags ...string) bool {
		for _, f := range flags {
			if o.Given != nil && o.Given(f) {
				return true
			}
		}
		return false
	}
	if !o.Local {
		if given("workers", "force") {
			return fmt.Errorf("eval: --workers and --force apply to --launcher local; with --launcher %s each task uses --cpus-per-task cores and --out must be new", o.Launcher)
		}
		if given("ops-out", "estimates", "instances") {
			return fmt.Errorf("eval: --ops-out, --estimates and --instances run with --launcher local only")
		}
		if _, err := PrepareEval(s); err != nil {
			return err
		}
		return o.Launch()
	}
	res, err := Eval(ctx, s)
	if err != nil {
		return err
	}
	if err := WriteSummaryTable(w, s.Out, s.Figures.Reference); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nwrote %s: %d schedulers × %d instances, %s\n", s.Out, len(s.Policies), res.Instances, strings.Join(res.Files, ", "))
	return nil
}

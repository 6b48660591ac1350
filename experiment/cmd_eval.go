package experiment

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evogp/evogp/reports"
)

// EvalCommand is what `evogp eval` runs: an evaluation here, or its tasks
// prepared in Settings.Out and submitted to a launcher. The steps that
// read the command's flags are callbacks, called in the order RunEval
// documents, so the first error is the same whichever steps fail.
type EvalCommand struct {
	// Settings holds everything but Policies, Estimates and
	// Figures.Formats, which RunEval reads from Schedulers (a
	// PolicyBuilder.Policies list), EstimatesSource (ParseEstimateSource)
	// and Formats (reports.ParseFormats).
	Settings                             EvalSettings
	Formats, Schedulers, EstimatesSource string
	// Builder returns the builder of the policies (the evo and rule
	// settings applied).
	Builder func() (PolicyBuilder, error)
	// Launcher checks the launcher flags and names the launcher; local
	// says it runs the evaluation here. Launch submits the prepared tasks
	// to it.
	Launcher func() (name string, local bool, err error)
	Launch   func(launcher string) error
	// Given reports whether a flag was given, for the flags that apply to
	// one kind of launcher only; nil means none was.
	Given func(flag string) bool
}

// RunEval reads o's formats, builds the policies, reads the estimates
// source and checks the launcher, in that order. Locally it then
// evaluates (Eval), prints the summary table of Settings.Out against
// Settings.Figures.Reference and a line naming what was written, to w;
// otherwise it refuses the local-only flags, prepares the tasks
// (PrepareEval) and calls o.Launch.
func RunEval(ctx context.Context, o EvalCommand, w io.Writer) error {
	s := o.Settings
	var err error
	if s.Figures.Formats, err = reports.ParseFormats(o.Formats); err != nil {
		return err
	}
	b, err := o.Builder()
	if err != nil {
		return err
	}
	if s.Policies, err = b.Policies(o.Schedulers); err != nil {
		return err
	}
	if s.Estimates, err = ParseEstimateSource(o.EstimatesSource); err != nil {
		return err
	}
	launcher, local, err := o.Launcher()
	if err != nil {
		return err
	}
	given := func(flags ...string) bool {
		for _, f := range flags {
			if o.Given != nil && o.Given(f) {
				return true
			}
		}
		return false
	}
	if !local {
		if given("workers", "force") {
			return fmt.Errorf("eval: --workers and --force apply to --launcher local; with --launcher %s each task uses --cpus-per-task cores and --out must be new", launcher)
		}
		if given("ops-out", "estimates", "instances") {
			return fmt.Errorf("eval: --ops-out, --estimates and --instances run with --launcher local only")
		}
		if _, err := PrepareEval(s); err != nil {
			return err
		}
		return o.Launch(launcher)
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

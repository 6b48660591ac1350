package experiment

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evogp/evogp/policies"
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

// EvalHelp is the description of `evogp eval`: the scheduler entries
// PolicyBuilder.Policies reads, what the output directory holds, and the
// EVO figures.
func EvalHelp() string {
	return "Each entry of --schedulers is " + policies.List().Help() + ", or\n" +
		"LABEL=SOURCE where SOURCE is a scheduler spec run under LABEL (srtf=mct+srtf+bestfit; prefix scheduler: to force it), a best.json, a run directory holding best.json, or a formula over\n" +
		"d, q, u, g (prefix run: or formula: to force one reading; a bare name that is both is refused). LABEL=SOURCE runs the formula under LABEL when LABEL is a scheduler whose ranking is\n" +
		"formula (gp = MCT + formula + best fit, evo-gp = EVO + formula + best fit, evo+formula+roundrobin,\n" +
		"...), and under MCT + formula + best fit for any other label; a learner run's formula reads d and q in that run's\n" +
		"gp.time_unit (from its config.yaml) unless --time-unit is given.\n" +
		"The output directory gets results.parquet, jobs.parquet,\n" +
		"summary.md, summary.csv, the figures and " + MarkerFile + "; it is built in a temporary\n" +
		"directory and appears complete or not at all. An existing output directory is replaced\n" +
		"only if it was written by evogp (has " + MarkerFile + ") and --force is given.\n" +
		"The evo allocator takes the --evo-* flags and --seed. With EVO schedulers and their MCT counterparts\n" +
		"(evo-fifo and liquid, evo-srsf and tiresias, evo-lyra and lyra, evo-gp=R and gp=R, ...) eval draws\n" +
		"evo_rankings (paper Fig. 11b). --ops-out FILE writes the EVO operation log; with FILE = OUT/ops.parquet\n" +
		"it is part of the output directory, which then also gets evo_op_time (paper Fig. 12)."
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
	for _, text := range res.Omega {
		fmt.Fprintf(w, "\n%s", text)
	}
	fmt.Fprintf(w, "\nwrote %s: %d schedulers × %d instances, %s\n", s.Out, len(s.Policies), res.Instances, strings.Join(res.Files, ", "))
	return nil
}

package experiment

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
)

// LearnCommand is what `evogp learn` was given. Given says which flags
// the user gave (by name, without dashes); the checks that refuse flag
// combinations, and the defaults of a flag not given, depend on it.
type LearnCommand struct {
	Overrides  []string // the key=value arguments
	Config     string   // embedded config name or YAML file
	Out        string   // run (or sweep) directory; "" = a fresh one under runs/
	Train      string   // training dataset directory instead of generated instances
	Validation string   // validation dataset directory instead of generated instances
	Resume     string   // the run directory to continue
	Multirun   bool     // a sweep over the key=v1,v2 arguments (RunSweepCommand)
	Jobs       int      // sweep points side by side
	Launch     LaunchOptions
	Given      func(flag string) bool
	Now        time.Time // names the default output directory (UTC)
	Progress   progress.Options
	Provenance Provenance
	// ReduceTolerance > 0 (percent) also prints a shorter approximation of
	// the reduced trees, validation within that many percent, labelled
	// approximate (learn.Settings.ReduceTolerance).
	ReduceTolerance float64
}

// given reports whether the user gave flag; with no Given, none was.
func (o LearnCommand) given(flag string) bool { return o.Given != nil && o.Given(flag) }

// RunLearnCommand runs `evogp learn`: a new run, the resumption of
// o.Resume, or with o.Multirun a sweep. It writes the outcome to w (see
// WriteLearned) and warnings to errw.
func RunLearnCommand(ctx context.Context, o LearnCommand, w, errw io.Writer) error {
	if o.Multirun {
		return RunSweepCommand(ctx, o, w, errw)
	}
	if o.given("jobs") {
		return fmt.Errorf("learn: --jobs runs sweep points side by side and needs -m (a single run uses gp.workers=N)")
	}
	if o.given("launcher") && o.Launch.Launcher != LauncherLocal {
		return fmt.Errorf("learn: --launcher %s runs the points of a sweep and needs -m", o.Launch.Launcher)
	}
	if o.Resume != "" {
		return resumeLearnCommand(ctx, o, w)
	}
	cfg, err := configs.Load(o.Config)
	if err != nil {
		return err
	}
	if cfg, err = cfg.Override(o.Overrides...); err != nil {
		return err
	}
	// Dataset directories are recorded absolute in config.yaml so that
	// --resume works from any working directory.
	for _, d := range []struct {
		flag, dir string
		dst       *string
	}{{"train", o.Train, &cfg.Data.TrainDir}, {"validation", o.Validation, &cfg.Data.ValDir}} {
		if d.dir != "" {
			abs, err := filepath.Abs(d.dir)
			if err != nil {
				return fmt.Errorf("learn: --%s: %w", d.flag, err)
			}
			*d.dst = abs
		}
	}
	out := o.Out
	if out == "" {
		out = FreshDir(filepath.Join("runs", cfg.Name+"-"+o.Now.UTC().Format("20060102T150405Z")))
	}
	if o.ReduceTolerance < 0 || o.ReduceTolerance > 100 {
		return fmt.Errorf("learn: --reduce-tolerance %g: must be a percentage in [0, 100]", o.ReduceTolerance)
	}
	res, nval, err := Learn(ctx, LearnSettings{Config: cfg, Out: out, Progress: o.Progress, Provenance: o.Provenance, ReduceTolerance: o.ReduceTolerance})
	if !o.given("out") {
		linkLatestOrWarn(out, errw)
	}
	if err != nil {
		// A *learn.InterruptedError (Ctrl-C) says where the checkpoint is
		// and how to resume; anything else left no run directory.
		return err
	}
	return WriteLearned(w, res, nval)
}

// resumeLearnCommand continues the run in o.Resume with its own config
// (or --config's) and the overrides.
func resumeLearnCommand(ctx context.Context, o LearnCommand, w io.Writer) error {
	for _, f := range []string{"out", "train", "validation"} {
		if o.given(f) {
			return fmt.Errorf("learn: --%s cannot be combined with --resume (the run directory fixes it)", f)
		}
	}
	var cfg configs.Config
	var err error
	if o.given("config") {
		cfg, err = configs.Load(o.Config)
	} else {
		cfg, err = learn.RunConfig(o.Resume)
	}
	if err != nil {
		return err
	}
	if cfg, err = cfg.Override(o.Overrides...); err != nil {
		return err
	}
	res, nval, err := ResumeLearn(ctx, o.Resume, cfg, o.Progress, o.Provenance)
	if err != nil {
		return err
	}
	return WriteLearned(w, res, nval)
}

// WriteLearned writes the outcome of a finished run: the formula, the
// verdict against the best baseline (learn.Headline), any warning, the
// front and the held-out test table, and the counts; nval is the number
// of validation instances.
func WriteLearned(w io.Writer, res *learn.Result, nval int) error {
	writeFormulas(w, res)
	fmt.Fprintf(w, "%s\n", learn.Headline(res))
	for _, warn := range res.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", warn)
	}
	if res.Front != nil {
		if err := res.Front.WriteText(w); err != nil {
			return err
		}
		if err := res.Front.WriteOmega(w); err != nil {
			return err
		}
	}
	if res.Test != nil {
		if err := res.Test.WriteText(w); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "evaluations: %d simulations, %d cache hits over %d generations (%d validation instances)\n", res.Evaluations, res.CacheHits, len(res.Generations)-1, nval)
	fmt.Fprintf(w, "run directory: %s\n", res.Dir)
	return nil
}

// linkLatestOrWarn points runs/latest (beside dir) at dir if dir exists;
// a failure is a warning on errw, since the run itself is complete.
func linkLatestOrWarn(dir string, errw io.Writer) {
	if _, err := os.Stat(dir); err != nil {
		return
	}
	if err := LinkLatest(dir); err != nil {
		fmt.Fprintln(errw, "evogp: warning:", err)
	}
}

// LearnHelp is the description of `evogp learn`: what a learning run
// reads, evolves, selects and writes, and how a run is stopped and
// resumed.
const LearnHelp = "Generates the training and validation instances from the config (or reads --train and\n" +
	"--validation), evolves a priority function f over gp.terminals (default d, q, u, g) whose\n" +
	"fitness is the sum over a per-generation training subset of objective(mct+f+bestfit) /\n" +
	"objective(mct+srsf+bestfit), picks the best of the final population and hall of fame on the\n" +
	"validation set, compares it with the best baseline, scores it on the held-out test split\n" +
	"(data.test or data.test_dir) against every baseline, a constant and SRSF, and writes\n" +
	"runs/<config>-<UTC time>/ (or --out): config.yaml, generations.parquet, hall_of_fame.csv,\n" +
	"best.json, formula.go.txt, formula.tex, convergence.png/.svg and checkpoint/.\n" +
	"key=value arguments override any config key (unknown keys are errors; values must have the\n" +
	"key's type); flags may come before or after them. Ctrl-C stops after\n" +
	"the current evaluation and keeps the checkpoint; --resume continues it to the same result."

// writeFormulas prints a finished run's formulas: the reduced trees first
// (learn's behaviour-preserving reduction) in readable notation, with the
// known rule each is when it is one, then what the reduction was checked
// on and the evolved trees' sizes; a run without a reduction prints the
// simplified evolved trees as before.
func writeFormulas(w io.Writer, res *learn.Result) {
	dom := expr.DefaultDomain()
	routing, ranking := res.RoutingSimplified, res.Simplified
	routeLike, rankLike := "", ""
	if red := res.Reduced; red != nil {
		routing, ranking = red.Routing, red.Ranking
		routeLike, rankLike = res.ReducedRoutingLike, res.ReducedLike
	}
	text := func(t *expr.Tree, like string) string {
		s := expr.Readable(expr.Shorten(t), dom)
		if like != "" {
			s += "   " + like
		}
		return s
	}
	if routing != nil {
		fmt.Fprintf(w, "learned routing R (each job goes to the feasible cluster with the smallest R; scope %s): %s\n", res.Scope, text(routing, routeLike))
		fmt.Fprintf(w, "learned ranking f (smaller runs first): %s\n", text(ranking, rankLike))
	} else {
		fmt.Fprintf(w, "learned priority function (smaller runs first): %s\n", text(ranking, rankLike))
	}
	red := res.Reduced
	if red == nil {
		fmt.Fprintf(w, "on the simulator's inputs (d>0, q≥0, u≥1, g≥1, no overflow): %s\n", expr.SimplifyOn(res.Best, dom))
		return
	}
	sizes := fmt.Sprintf("f %d → %d nodes", res.Best.Size(), red.Ranking.Size())
	if red.Routing != nil {
		sizes = fmt.Sprintf("R %d → %d nodes, ", res.Routing.Size(), red.Routing.Size()) + sizes
	}
	fmt.Fprintf(w, "reduced from the evolved trees (%s; %d accepted of %d candidates, %.1f s): the same schedule, job for job, on all %d training and %d validation instances (checked by simulation); / marks a division whose divisor is never 0 on the simulator's inputs, %% a protected one\n",
		sizes, red.Steps, red.Tried, red.Elapsed.Seconds(), red.Training, red.Validation)
	if red.Routing != nil {
		fmt.Fprintf(w, "as evolved: R = %s ; f = %s (best.json \"tree\", evogp export --evolved)\n", res.Routing, res.Best)
	} else {
		fmt.Fprintf(w, "as evolved: %s (best.json \"tree\", evogp export --evolved)\n", res.Best)
	}
	if fr := res.FrontReduction; fr != nil {
		fmt.Fprintf(w, "front: every member reduced the same way (%d of %d smaller than evolved; %d candidates, %.1f s for the members other than the run's); the front table, front.parquet and export --omega show the reduced pairs, export --omega W --evolved the evolved ones\n",
			fr.Reduced, fr.Members, fr.Tried, fr.Elapsed.Seconds())
	}
}

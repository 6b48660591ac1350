package learn

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/internal/stats"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// SplitTest names the held-out test split (datasets.SplitSeed(seed, "test")).
const SplitTest = "test"

// LoadTest returns the held-out test instances of a config: the dataset in
// data.test_dir when set, otherwise data.test instances generated from the
// config's seed with datasets.SplitSeed(seed, "test"), a stream no other
// split shares. It returns nil when data.test is 0 and no directory is set.
func LoadTest(cfg configs.Config) ([]simcore.Instance, error) {
	if cfg.Data.TestDir == "" && cfg.Data.Test == 0 {
		return nil, nil
	}
	return split(cfg, SplitTest, cfg.Data.TestDir, cfg.Data.Test)
}

// testSource describes where LoadTest's instances come from.
func testSource(cfg configs.Config, n int) string {
	if cfg.Data.TestDir != "" {
		return fmt.Sprintf("%d instances of %s", n, cfg.Data.TestDir)
	}
	return fmt.Sprintf("%d instances generated from seed %d (split %q)", n, cfg.DataSeed(), SplitTest)
}

// contender is a scheduler of the comparison.
type contender struct {
	name, spec string
	baseline   bool
	sched      simcore.Scheduler
}

// contenders are the learned formula, every named baseline, the constant
// priority 0 and SRSF, the formula and the constant under the candidate
// scheduler gp.allocator + · + gp.placer, SRSF under gp.allocator + srsf +
// gp.placer (the normaliser of the fitness).
func contenders(cfg configs.Config, routing, formula *expr.Tree) ([]contender, error) {
	seconds := cfg.GP.TimeUnit == "seconds"
	spec := candidateSpec(cfg.GP.Allocator, cfg.GP.Placer)
	mk := func(t *expr.Tree) (simcore.Scheduler, error) {
		return policies.ParseWith(spec, map[string]simcore.Ranking{"formula": NewFormulaRanking(t, seconds)})
	}
	var out []contender
	learned, err := mk(formula)
	if routing != nil {
		learned, err = LearnedScheduler(cfg, routing, formula)
	}
	if err != nil {
		return nil, err
	}
	out = append(out, contender{RowLearned, individualString(routing, formula), false, learned})
	for _, name := range policies.Baselines() {
		s, err := policies.ParseWith(name, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, contender{name, name, true, s})
	}
	konst, err := mk(expr.Constant(0))
	if err != nil {
		return nil, err
	}
	out = append(out, contender{RowConstant, "0", false, konst})
	srsfSpec := cfg.GP.Allocator + "+srsf+" + cfg.GP.Placer
	srsf, err := policies.ParseWith(srsfSpec, nil)
	if err != nil {
		return nil, err
	}
	return append(out, contender{RowSRSF, srsfSpec, false, srsf}), nil
}

// simulateAll returns obj[c][i], the objective of contender c on instance i.
func simulateAll(ctx context.Context, cs []contender, insts []simcore.Instance, opts simcore.Options, workers int) ([][]float64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := len(insts)
	flat := make([]float64, len(cs)*n)
	err := parallel.For(ctx, len(flat), workers, func(k int) error {
		c, i := k/n, k%n
		res, err := simcore.Simulate(ctx, &insts[i], cs[c].sched, opts)
		if err != nil {
			return fmt.Errorf("simulate %s on instance %q: %w", cs[c].name, insts[i].Name, err)
		}
		flat[k] = res.Metrics.Objective
		return nil
	})
	if err != nil {
		return nil, err
	}
	obj := make([][]float64, len(cs))
	for c := range cs {
		obj[c] = flat[c*n : (c+1)*n]
	}
	return obj, nil
}

// ScoreOnTest scores formula on the held-out instances test against every
// named baseline, the constant priority 0 and SRSF (see TestRow for the
// columns), under cfg's simulator options and candidate scheduler. The
// best baseline is the one with the lowest mean normalised objective
// (ties: name order). The result does not depend on workers.
func ScoreOnTest(ctx context.Context, cfg configs.Config, formula *expr.Tree, test []simcore.Instance, workers int) (*TestTable, error) {
	return ScoreIndividualOnTest(ctx, cfg, nil, formula, test, workers)
}

// ScoreIndividualOnTest is ScoreOnTest for a learned individual: with a
// routing tree (gp.learn: [routing, ranking]) the learned row is
// rule(routing, gp.scope) + formula + gp.placer; routing nil is
// ScoreOnTest.
func ScoreIndividualOnTest(ctx context.Context, cfg configs.Config, routing, formula *expr.Tree, test []simcore.Instance, workers int) (*TestTable, error) {
	if len(test) == 0 {
		return nil, errors.New("learn: test split is empty")
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		return nil, err
	}
	cs, err := contenders(cfg, routing, formula)
	if err != nil {
		return nil, err
	}
	obj, err := simulateAll(ctx, cs, test, opts, workers)
	if err != nil {
		return nil, fmt.Errorf("learn: test split: %w", err)
	}
	srsf := obj[len(cs)-1]
	t := &TestTable{Split: testSource(cfg, len(test)), Instances: len(test)}
	for c, ct := range cs {
		row := TestRow{Scheduler: ct.name, Spec: ct.spec, Baseline: ct.baseline, Objectives: obj[c]}
		for i, o := range obj[c] {
			row.Objective += o / float64(len(test))
			row.Normalised += normalise(o, srsf[i]) / float64(len(test))
		}
		t.Rows = append(t.Rows, row)
	}
	// Wins and mean ranks over all rows, instance by instance.
	col := make([]float64, len(cs))
	for i := range test {
		for c := range cs {
			col[c] = obj[c][i]
		}
		ranks, _ := stats.MidRanks(col)
		best := slices.Min(col)
		nBest := 0
		for _, v := range col {
			if v == best {
				nBest++
			}
		}
		for c := range cs {
			t.Rows[c].MeanRank += ranks[c] / float64(len(test))
			if col[c] == best {
				t.Rows[c].Wins += 1 / float64(nBest)
			}
		}
	}
	var scores []BaselineScore // the best baseline on this split, by runfile.BestBaseline
	for _, r := range t.Rows {
		if r.Baseline {
			scores = append(scores, BaselineScore{Name: r.Scheduler, Score: r.Normalised})
		}
	}
	best, _ := runfile.BestBaseline(scores)
	bb := slices.IndexFunc(t.Rows, func(r TestRow) bool { return r.Baseline && r.Scheduler == best.Name })
	t.BestBaseline, t.BestBaselineBasis = t.Rows[bb].Scheduler, BasisTestSplit
	if err := t.CompareWith(bb); err != nil {
		return nil, err
	}
	return t, nil
}

// validateBaselines scores every named baseline on the validation set,
// in policies.Baselines order.
func (e *evaluator) validateBaselines(ctx context.Context) ([]BaselineScore, error) {
	var cs []contender
	for _, name := range policies.Baselines() {
		s, err := policies.ParseWith(name, nil)
		if err != nil {
			return nil, err
		}
		cs = append(cs, contender{name: name, sched: s})
	}
	obj, err := simulateAll(ctx, cs, e.val, e.opts, e.workers)
	if err != nil {
		return nil, fmt.Errorf("validation baselines: %w", err)
	}
	out := make([]BaselineScore, len(cs))
	for c := range cs {
		out[c].Name = cs[c].name
		for i, o := range obj[c] {
			out[c].Score += normalise(o, e.baseVal[i])
		}
		out[c].Score /= float64(len(e.val))
	}
	return out, nil
}

// bestBaseline is the best baseline of bs (runfile.BestBaseline, the one
// definition).
func bestBaseline(bs []BaselineScore) BaselineScore {
	best, _ := runfile.BestBaseline(bs)
	return best
}

// nearlyEquivalent is the share of sampled decisions on which a formula
// must order jobs like a reference ranking (up to its ties) for Warnings
// to call it nearly equivalent.
const nearlyEquivalent = 0.9

// Warnings says when a formula is not what it seems: constant on the
// simulator's inputs (expr.SimplifyOn over expr.DefaultDomain leaves no
// terminal), or ranking like one of the reference rankings (fifo, srsf,
// lyra, sjf, srtf) on up to sample decisions recorded while the formula's
// own scheduler runs on the instances (validation set): exactly on every
// decision; on every decision up to the reference's ties (w − a − w is
// FIFO except that rounding orders jobs that arrived together by w); or
// on at least 90 % of them.
func Warnings(ctx context.Context, cfg configs.Config, formula *expr.Tree, insts []simcore.Instance, sample int) ([]string, error) {
	mk := func(r simcore.Ranking) (simcore.Scheduler, error) {
		return policies.ParseWith(candidateSpec(cfg.GP.Allocator, cfg.GP.Placer), map[string]simcore.Ranking{"formula": r})
	}
	return rankingWarnings(ctx, cfg, formula, mk, insts, sample)
}

// rankingWarnings are Warnings with the decisions sampled while the
// scheduler mk builds around the formula runs.
func rankingWarnings(ctx context.Context, cfg configs.Config, formula *expr.Tree, mk func(simcore.Ranking) (simcore.Scheduler, error), insts []simcore.Instance, sample int) ([]string, error) {
	out, _, err := rankingWarningsLike(ctx, cfg, formula, mk, insts, sample)
	return out, err
}

// rankingWarningsLike is rankingWarnings, and also the reference ranking
// the formula orders jobs exactly like on every sampled decision (its ties
// aside), or "" for none. A formula constant on the simulator's inputs is
// FIFO (the engine's tie order).
func rankingWarningsLike(ctx context.Context, cfg configs.Config, formula *expr.Tree, mk func(simcore.Ranking) (simcore.Scheduler, error), insts []simcore.Instance, sample int) ([]string, string, error) {
	out, like, _, err := rankingWarningsReading(ctx, cfg, formula, mk, insts, sample)
	return out, like, err
}

// rankingWarningsReading is rankingWarningsLike and also the reading of
// the formula a printed formula carries: "≡ -a (FIFO)" when it simplifies
// on the simulator's inputs to a reference rule's formula, else what
// likenessWarnings says ("orders like …", "FIFO-like (…)"), "" for none.
func rankingWarningsReading(ctx context.Context, cfg configs.Config, formula *expr.Tree, mk func(simcore.Ranking) (simcore.Scheduler, error), insts []simcore.Instance, sample int) ([]string, string, string, error) {
	var out []string
	like := ""
	seconds := cfg.GP.TimeUnit == "seconds"
	rules := referenceRules(seconds)
	reading := algebraicLike(formula, rules)
	if dom := expr.SimplifyOn(formula, expr.DefaultDomain()); dom.Terminals() == 0 {
		what := fmt.Sprintf("constant on the simulator's inputs (%s = %s)", formula, dom)
		if formula.String() == dom.String() {
			what = "the constant " + dom.String()
		}
		out = append(out, fmt.Sprintf("the formula is %s: every job gets the same priority, so the engine's tie order (arrival, id) decides — it is FIFO", what))
		like = "fifo"
		if reading == "" {
			reading = "constant: FIFO order (the engine's tie order)"
		}
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		return nil, "", "", err
	}
	rank := NewFormulaRanking(formula, seconds)
	ds, err := sampleDecisions(ctx, insts, opts, mk, rank, sample)
	if err != nil {
		return nil, "", "", fmt.Errorf("learn: sampling decisions: %w", err)
	}
	if len(ds) == 0 {
		return out, like, reading, nil
	}
	ws, l, r := likenessWarnings(rank, rules, ds)
	out = append(out, ws...)
	if like == "" {
		like = l
	}
	if reading == "" {
		reading = r
	}
	return out, like, reading, nil
}

// Headline is the one-line verdict of a finished run (runfile.Headline,
// which the report also uses for a run's best.json).
func Headline(res *Result) string {
	return runfile.Headline(res.Validation, res.ValidationBaselines, res.Test)
}

package learn

import (
	"context"
	"fmt"
	"slices"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// reduceBest reduces the chosen individual (res.Best, res.Routing) and
// sets res.Reduced.
func (r *runner) reduceBest(ctx context.Context, res *Result) error {
	rankLeaves := expr.ReductionLeaves(r.terms.Or(expr.PaperTerminals))
	var routeLeaves []*expr.Tree
	if res.Routing != nil {
		routeLeaves = expr.ReductionLeaves(r.routingTerms)
	}
	red, err := r.ev.reduce(ctx, individual{res.Routing, res.Best}, rankLeaves, routeLeaves)
	if err != nil {
		return err
	}
	res.Reduced = red
	if err := r.reduceFront(ctx, res, red, rankLeaves, routeLeaves); err != nil {
		return err
	}
	if r.s.ReduceTolerance > 0 {
		base, err := r.ev.validate(ctx, []individual{{red.Routing, red.Ranking}})
		if err != nil {
			return err
		}
		if res.Approximate, err = r.ev.approximate(ctx, individual{red.Routing, red.Ranking}, base[0], r.s.ReduceTolerance, rankLeaves, routeLeaves); err != nil {
			return err
		}
	}
	return nil
}

// reducedTest scores the reduced pair on the test split: its mean
// normalised objective (SRSF's objectives are the test table's last row)
// and the number of test instances where its schedule is the evolved
// pair's.
func reducedTest(ctx context.Context, cfg configs.Config, res *Result, test []simcore.Instance, workers int) (float64, int, error) {
	opts, err := SimOptions(cfg)
	if err != nil {
		return 0, 0, err
	}
	seconds := cfg.GP.TimeUnit == "seconds"
	mk := func(routing, f *expr.Tree) (simcore.Scheduler, error) {
		if routing == nil {
			return policies.ParseWith(candidateSpec(cfg.GP.Allocator, cfg.GP.Placer), map[string]simcore.Ranking{"formula": NewFormulaRanking(f, seconds)})
		}
		return LearnedSchedulerWith(cfg, routing, NewFormulaRanking(f, seconds))
	}
	evolved, err := mk(res.RoutingSimplified, res.Simplified)
	if err != nil {
		return 0, 0, err
	}
	reduced, err := mk(res.Reduced.Routing, res.Reduced.Ranking)
	if err != nil {
		return 0, 0, err
	}
	cs := []contender{{name: "evolved", sched: evolved}, {name: "reduced", sched: reduced}}
	jobs := make([][]simcore.JobResult, 2*len(test))
	obj := make([]float64, 2*len(test))
	if err := parallel.For(ctx, len(jobs), workers, func(k int) error {
		c, i := k/len(test), k%len(test)
		r, err := simcore.Simulate(ctx, &test[i], cs[c].sched, opts)
		if err != nil {
			return fmt.Errorf("reduced pair on test instance %q: %w", test[i].Name, err)
		}
		jobs[k], obj[k] = r.Jobs, r.Metrics.Objective
		return nil
	}); err != nil {
		return 0, 0, err
	}
	srsf := res.Test.Rows[len(res.Test.Rows)-1].Objectives
	score, same := 0.0, 0
	for i := range test {
		score += normalise(obj[len(test)+i], srsf[i]) / float64(len(test))
		if slices.Equal(jobs[i], jobs[len(test)+i]) {
			same++
		}
	}
	return score, same, nil
}

// reducedJSON is best.json's "reduced" for res (nil without a reduction).
func reducedJSON(res *Result) *ReducedJSON {
	red := res.Reduced
	if red == nil {
		return nil
	}
	dom := expr.DefaultDomain()
	out := &ReducedJSON{
		Ranking: red.Ranking, Infix: red.Ranking.String(), Readable: expr.Readable(expr.Shorten(red.Ranking), dom), Size: red.Ranking.Size(),
		EvolvedSize: res.Best.Size(), Exact: true,
		CheckedOn:  CheckedOn{Instances: red.Training + red.Validation, Sets: []string{"training", "validation"}, Training: red.Training, Valid: red.Validation},
		Validation: res.ReducedValidation,
		Like:       res.ReducedLike, RoutingLike: res.ReducedRoutingLike,
	}
	out.LaTeX, _ = expr.FormatOn(expr.Shorten(red.Ranking), "latex", dom)
	if red.Routing != nil {
		out.RoutingLaTeX, _ = expr.FormatOn(expr.Shorten(red.Routing), "latex", dom)
		out.Routing, out.RoutingInfix = RoutingTree{Tree: red.Routing}, red.Routing.String()
		out.RoutingReadable, out.RoutingSize = expr.Readable(expr.Shorten(red.Routing), dom), red.Routing.Size()
		out.EvolvedRoutingSize = res.Routing.Size()
	}
	if a := res.Approximate; a != nil {
		out.Approximate = &ApproximateJSON{Label: "approximate", Tolerance: a.Tolerance, Ranking: a.Ranking, Infix: a.Ranking.String(),
			Readable: expr.Readable(expr.Shorten(a.Ranking), dom), Validation: a.Validation}
		if a.Routing != nil {
			out.Approximate.Routing, out.Approximate.RoutingReadable = RoutingTree{Tree: a.Routing}, expr.Readable(expr.Shorten(a.Routing), dom)
		}
	}
	if res.ReducedTest != nil {
		v, n := *res.ReducedTest, res.ReducedTestIdentical
		out.Test, out.TestIdentical, out.TestInstances = &v, &n, res.Test.Instances
	}
	return out
}

// reducedInfo are the scores and names of a run's reduced pair (Result).
type reducedInfo struct {
	// ReducedValidation is the reduced pair's validation score (the
	// evolved one's when the reduction is exact), ReducedTest its mean
	// normalised test objective (nil without a test split) and
	// ReducedTestIdentical the test instances where its schedule is the
	// evolved pair's.
	ReducedValidation    float64
	ReducedTest          *float64
	ReducedTestIdentical int
	// ReducedLike and ReducedRoutingLike name the known rule each reduced
	// tree is or orders like ("" for none).
	ReducedLike, ReducedRoutingLike string
	// Approximate is the --reduce-tolerance approximation (nil without).
	Approximate *Approximation
	// FrontReduction says what reducing every front member took (front
	// runs only; front_reduce.go).
	FrontReduction *FrontReduction
}

// reducedWarnings scores the reduced pair on validation and returns the
// warnings, measured on the reduced trees (they make the evolved trees'
// decisions on the validation instances).
func (r *runner) reducedWarnings(ctx context.Context, res *Result) ([]string, error) {
	red := res.Reduced
	v, err := r.ev.validate(ctx, []individual{{red.Routing, red.Ranking}})
	if err != nil {
		return nil, err
	}
	res.ReducedValidation = v[0]
	ws, route, rank, err := individualWarningsReadings(ctx, r.cfg, red.Routing, red.Ranking, r.s.Validation, r.cfg.GP.DedupSample)
	res.ReducedRoutingLike, res.ReducedLike = route, rank
	return ws, err
}

// scoreReducedOnTest sets res.ReducedTest and res.ReducedTestIdentical.
func (r *runner) scoreReducedOnTest(ctx context.Context, res *Result, test []simcore.Instance) error {
	if res.Reduced == nil || res.Test == nil {
		return nil
	}
	score, same, err := reducedTest(ctx, r.cfg, res, test, r.ev.workers)
	if err != nil {
		return err
	}
	res.ReducedTest, res.ReducedTestIdentical = &score, same
	return nil
}

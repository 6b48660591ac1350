package learn

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/simcore"
)

// Behaviour-preserving reduction (issue 40): after learning, each tree of
// the chosen individual is replaced by the smallest tree found that makes
// the same scheduling decisions.
//
// Candidates (expr.Reductions) replace one subtree by one of its operands,
// a terminal of the run's set or the constant 0 or 1, simplified exactly;
// the domain simplification (expr.SimplifyOn) is a candidate too. A
// candidate is accepted only if its schedule — every job's result,
// simcore.JobResult: cluster, start, finish, queueing, preemptions,
// migrations — and the number of scheduling operations are identical, job
// for job, to the evolved individual's on every training and validation
// instance, each checked by simulating it to the end. Why this is exact on
// those instances: it is the definition (the check is the simulation). It
// is not a proof for other instances; best.json says what was checked.
//
// Greedy and cheap: candidates are tried smallest first and the first one
// accepted becomes the new individual (the search restarts from it), so
// the largest step is taken first. A candidate is rejected at the first
// instance whose schedule differs, and within a simulation as soon as one
// scheduling operation differs from the reference's (time, jobs arrived,
// jobs finished — the reference records them; an identical schedule has
// identical operations, so stopping there only ever rejects a candidate
// that differs). The instance that rejected the last candidate is tried
// first next time. Candidates are checked in batches of one per worker;
// the first accepted candidate of a batch in candidate order wins, so the
// result does not depend on the worker count (only the work done does).
// Oracle: TestReducedScheduleIdentical re-simulates every reduced pair
// against its evolved one.

// Reduction is the outcome of reducing a learned individual.
type Reduction struct {
	// Routing (nil for a one-tree individual) and Ranking are the reduced
	// trees.
	Routing, Ranking *expr.Tree
	// Training and Validation are the numbers of instances the schedule
	// was checked on (all of each set).
	Training, Validation int
	// Steps is the number of candidates accepted, Tried the candidates
	// checked and Simulations the simulations run (reference included);
	// Tried and Simulations depend on the worker count.
	Steps, Tried, Simulations int
	// Elapsed is the wall time taken.
	Elapsed time.Duration
}

// refSchedule is the reference individual's simulation of one instance:
// its jobs' results and its scheduling operations.
type refSchedule struct {
	jobs []simcore.JobResult
	ops  []opStamp
}

// opStamp is what Options.OnOperation reports of one operation.
type opStamp struct {
	t                 int64
	arrived, finished int
}

// errDiffers stops a candidate's simulation at its first operation that
// differs from the reference's.
var errDiffers = errors.New("schedule differs")

// reducer checks candidates against the reference schedules.
type reducer struct {
	e     *evaluator
	insts []*simcore.Instance // training, then validation
	ref   []refSchedule
	order []int // instance indices, the last rejecting instance first
	sims  int
}

// reduce returns the reduction of ind: ranking candidates use the leaves
// rankLeaves, routing candidates routeLeaves.
func (e *evaluator) reduce(ctx context.Context, ind individual, rankLeaves, routeLeaves []*expr.Tree) (*Reduction, error) {
	start := time.Now()
	rd := &reducer{e: e}
	for i := range e.train {
		rd.insts = append(rd.insts, &e.train[i])
	}
	for i := range e.val {
		rd.insts = append(rd.insts, &e.val[i])
	}
	rd.order = make([]int, len(rd.insts))
	for i := range rd.order {
		rd.order[i] = i
	}
	cur := individual{simplifyRouting(ind.routing), expr.Simplify(ind.ranking)}
	if err := rd.reference(ctx, cur); err != nil {
		return nil, err
	}
	out := &Reduction{Training: len(e.train), Validation: len(e.val)}
	for {
		cands := reductionCandidates(cur, rankLeaves, routeLeaves)
		if len(cands) == 0 {
			break
		}
		next, tried, err := rd.firstIdentical(ctx, cands)
		out.Tried += tried
		if err != nil {
			return nil, err
		}
		if next < 0 {
			break
		}
		cur = cands[next]
		out.Steps++
	}
	out.Routing, out.Ranking = cur.routing, cur.ranking
	out.Simulations = rd.sims
	out.Elapsed = time.Since(start)
	return out, nil
}

// reductionCandidates are the candidates of one greedy step from cur: the
// domain simplification of both trees first, then every one-step
// reduction of either tree (expr.Reductions), smallest pair first, the
// negations pushed out and cancelled (expr.PushNegations) before that
// (routing candidates before ranking ones of the same size).
func reductionCandidates(cur individual, rankLeaves, routeLeaves []*expr.Tree) []individual {
	var out []individual
	dom := expr.DefaultDomain()
	onDom := individual{ranking: expr.SimplifyOn(cur.ranking, dom)}
	if cur.routing != nil {
		onDom.routing = expr.SimplifyOn(cur.routing, dom)
	}
	pushed := individual{ranking: expr.PushNegations(onDom.ranking)}
	if cur.routing != nil {
		pushed.routing = expr.PushNegations(onDom.routing)
	}
	for _, c := range []individual{pushed, onDom} {
		if c.size() < cur.size() && !slices.ContainsFunc(out, func(o individual) bool { return o.hash() == c.hash() }) {
			out = append(out, c)
		}
	}
	var steps []individual
	if cur.routing != nil {
		for _, r := range expr.Reductions(cur.routing, routeLeaves) {
			steps = append(steps, individual{r, cur.ranking})
		}
	}
	for _, f := range expr.Reductions(cur.ranking, rankLeaves) {
		steps = append(steps, individual{cur.routing, f})
	}
	slices.SortStableFunc(steps, func(a, b individual) int { return a.size() - b.size() })
	return append(out, steps...)
}

// reference simulates ind on every instance, recording its schedule.
func (rd *reducer) reference(ctx context.Context, ind individual) error {
	sched, err := rd.e.individualScheduler(ind.routing, NewFormulaRanking(ind.ranking, rd.e.seconds))
	if err != nil {
		return err
	}
	rd.ref = make([]refSchedule, len(rd.insts))
	rd.sims += len(rd.insts)
	return parallel.For(ctx, len(rd.insts), rd.e.workers, func(i int) error {
		opts := rd.e.opts
		var ops []opStamp
		opts.OnOperation = func(t int64, arrived, finished int) {
			ops = append(ops, opStamp{t, arrived, finished})
		}
		res, err := simcore.Simulate(ctx, rd.insts[i], sched, opts)
		if err != nil {
			return fmt.Errorf("reduction: simulate %s on instance %q: %w", sched.Name(), rd.insts[i].Name, err)
		}
		rd.ref[i] = refSchedule{jobs: res.Jobs, ops: ops}
		return nil
	})
}

// firstIdentical checks cands in batches of one per worker and returns
// the index of the first whose schedule is identical to the reference on
// every instance (−1: none), and the number checked.
func (rd *reducer) firstIdentical(ctx context.Context, cands []individual) (int, int, error) {
	k := max(1, rd.e.workers)
	tried := 0
	for lo := 0; lo < len(cands); lo += k {
		batch := cands[lo:min(lo+k, len(cands))]
		failed := make([]int, len(batch)) // the instance that rejected it, −1: accepted
		sims := make([]int, len(batch))
		order := slices.Clone(rd.order)
		err := parallel.For(ctx, len(batch), rd.e.workers, func(b int) error {
			var err error
			failed[b], sims[b], err = rd.check(ctx, batch[b], order)
			return err
		})
		tried += len(batch)
		for _, s := range sims {
			rd.sims += s
		}
		if err != nil {
			return -1, tried, err
		}
		for b, f := range failed {
			if f < 0 {
				return lo + b, tried, nil
			}
		}
		// Every candidate of the batch was rejected: the instance that
		// rejected the first goes first.
		rd.moveToFront(failed[0])
	}
	return -1, tried, nil
}

func (rd *reducer) moveToFront(inst int) {
	i := slices.Index(rd.order, inst)
	copy(rd.order[1:i+1], rd.order[:i])
	rd.order[0] = inst
}

// check simulates c on the instances in order until one schedule differs
// from the reference, and returns that instance (−1: none differs) and
// the simulations run.
func (rd *reducer) check(ctx context.Context, c individual, order []int) (int, int, error) {
	sched, err := rd.e.individualScheduler(c.routing, NewFormulaRanking(c.ranking, rd.e.seconds))
	if err != nil {
		return 0, 0, err
	}
	sims := 0
	for _, i := range order {
		sims++
		same, err := rd.sameOn(ctx, sched, i)
		if err != nil {
			return 0, sims, err
		}
		if !same {
			return i, sims, nil
		}
	}
	return -1, sims, nil
}

// sameOn simulates sched on instance i and reports whether its schedule
// is the reference's, stopping at the first operation that differs.
func (rd *reducer) sameOn(ctx context.Context, sched simcore.Scheduler, i int) (bool, error) {
	ref := rd.ref[i]
	sub, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	opts := rd.e.opts
	k := 0
	opts.OnOperation = func(t int64, arrived, finished int) {
		if k >= len(ref.ops) || ref.ops[k] != (opStamp{t, arrived, finished}) {
			cancel(errDiffers)
		}
		k++
	}
	res, err := simcore.Simulate(sub, rd.insts[i], sched, opts)
	switch {
	case ctx.Err() != nil:
		return false, ctx.Err()
	case errors.Is(context.Cause(sub), errDiffers):
		return false, nil
	case err != nil:
		// A candidate the simulator refuses is not the reference.
		return false, nil
	}
	return k == len(ref.ops) && slices.Equal(res.Jobs, ref.jobs), nil
}

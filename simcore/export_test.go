package simcore

import (
	"context"
	"math/rand/v2"
	"slices"
	"sort"
)

// TestHooks are the simulator's test-only switches (testhooks.go), for
// the external test package.
type TestHooks struct {
	// AlwaysReplan disables plan reuse: every cluster is replanned from its
	// fixed jobs at every operation (the reference path).
	AlwaysReplan bool
	// FullPlans places every job instead of stopping at the next
	// arrival's horizon.
	FullPlans bool
	// NoListLevels keeps the cluster plans on the start cache where they
	// would read the levels (planlevels.go).
	NoListLevels bool
	// AlwaysListLevels loads levels for every plan state.
	AlwaysListLevels bool
	// RefReleaseSort sorts release batches by comparison (relsort.go).
	RefReleaseSort bool
	// EagerStartCache applies placements to the start cache at once.
	EagerStartCache bool
	// StartCacheFlushAt, when > 0, bounds the start cache's log.
	StartCacheFlushAt int
	// NoKeyMemo evaluates the allocation seam's keys on every call.
	NoKeyMemo bool
	// Stats, when set, counts how the splice path built plans.
	Stats *PlanStats
}

// PlanStats counts how the splice path built plans (tests only).
type PlanStats = planStats

// SimulateHooked is Simulate with the test-only switches h.
func SimulateHooked(ctx context.Context, inst *Instance, sched Scheduler, opts Options, h TestHooks) (Result, error) {
	return simulate(ctx, inst, sched, opts, testHooks{alwaysReplan: h.AlwaysReplan, fullPlans: h.FullPlans, noListLevels: h.NoListLevels, alwaysListLevels: h.AlwaysListLevels,
		refReleaseSort: h.RefReleaseSort, eagerStartCache: h.EagerStartCache, startCacheFlushAt: h.StartCacheFlushAt, noKeyMemo: h.NoKeyMemo, stats: h.Stats})
}

// SimulateReplanning is Simulate on the reference path: plan reuse
// disabled.
func SimulateReplanning(ctx context.Context, inst *Instance, sched Scheduler, opts Options) (Result, error) {
	return SimulateHooked(ctx, inst, sched, opts, TestHooks{AlwaysReplan: true})
}

// BoundStudy counts, over sampled MCT what-ifs, the placements the exact
// what-if needs (the plan up to the job's rank on every cluster asked)
// and those a best-first search on prefix lower bounds would need (tests
// only; see TestMCTPrefixBoundStudy).
type BoundStudy struct {
	Every                    int // sample the first arrival of every Every-th operation
	Samples, Need, BestFirst int64
}

// NewBoundStudyMCT is MCT that first measures st on the sampled arrivals.
func NewBoundStudyMCT(st *BoundStudy) Allocator { return boundStudyMCT{st} }

type boundStudyMCT struct{ st *BoundStudy }

// Allocate implements Allocator. For the sampled job j and every feasible
// cluster it replays the plan's first m jobs for m = 0..k (k = j's rank)
// and records the lower bound F(m) = start of j after them + rem_j, which
// only grows with m (more jobs holding GPUs from t only delay a start).
// A best-first search that extends the cluster of smallest bound stops
// once that cluster's bound is exact; it places k on the winner and, on
// any other cluster, the first m whose bound reaches the best finish.
func (m boundStudyMCT) Allocate(a *Allocation) error {
	s := a.s
	if len(s.arrivals) > 0 && s.ops%m.st.Every == 0 {
		j := s.arrivals[0]
		job := &s.inst.Jobs[j]
		w, r := job.PerWorker(), job.Workers
		var rows [][]int64
		best := int64(never)
		for pi, p := range s.clusters {
			if !s.feasible(j, pi) {
				continue
			}
			s.setKey(j, pi)
			if err := p.plan(); err != nil {
				return err
			}
			k := sort.Search(len(p.jobs), func(i int) bool { return s.rankLess(j, p.jobs[i]) })
			if err := p.ensure(k); err != nil {
				return err
			}
			sigma := make([]int, p.nodes)
			for n := range sigma {
				sigma[n] = p.g - p.fixedUse[n]
			}
			rel := slices.Clone(p.fixedRels)
			var row []int64
			for i := 0; i <= k; i++ {
				if i > 0 {
					for _, rl := range p.last.orderRel[p.last.orderOff[i-1]:p.last.orderOff[i]] {
						sigma[rl.node] -= int(rl.gpus)
						rel = slices.Insert(rel, relAfter(rel, rl.at), rl)
					}
				}
				free := slices.Clone(sigma)
				start := int64(never)
				if countFits(free, w) >= r {
					start = s.now
				}
				for x := 0; start == never && x < len(rel); {
					at := rel[x].at
					for ; x < len(rel) && rel[x].at == at; x++ {
						free[rel[x].node] += int(rel[x].gpus)
					}
					if at > s.now && countFits(free, w) >= r {
						start = at
					}
				}
				row = append(row, start+p.rem(j))
			}
			rows = append(rows, row)
			best = min(best, row[k])
			m.st.Need += int64(k)
		}
		m.st.Samples++
		winner := false
		for _, row := range rows {
			k := len(row) - 1
			if row[k] == best && !winner {
				winner = true
				m.st.BestFirst += int64(k)
				continue
			}
			i := 0
			for i < k && row[i] < best {
				i++
			}
			m.st.BestFirst += int64(i)
		}
	}
	return MCT{}.Allocate(a)
}

// GoldenInstances are the instances of TestGoldenJobResults (tests only),
// for the widened golden test in package simcore_test.
func GoldenInstances() []*Instance { return goldenInstances() }

// RandomInstance draws a small, contended multi-cluster instance (tests
// only; the instances of the invariant suites).
func RandomInstance(rng *rand.Rand, name string) *Instance { return randomInstance(rng, name) }

// GoldenModes are the trigger × backfill modes of TestGoldenJobResults
// (tests only).
func GoldenModes() []Options { return goldenModes() }

package simcore

import (
	"errors"
	"fmt"
)

// ListScheduler is the paper's pipeline of SPEC §5 behind the Scheduler
// seam: at each operation its Allocator sets the cluster of the
// schedulable jobs, its Ranking orders each cluster's jobs by the key
// (f(j, t), a_j, id) and the cluster planner (§4.3, in the configured
// backfill mode) gives each job in that order its earliest start, placed by
// its Placer.
//
// It plans through the engine's incremental per-cluster planners (plans
// carried across operations, MCT what-ifs on prefixes), which is why it
// lives in simcore; its plans are trusted and validated only under
// Options.CheckPlans.
type ListScheduler struct {
	Label     string
	Allocator Allocator
	Ranking   Ranking
	Placer    Placer
	// Parts are the registry names of the allocator, ranking and placer
	// when Registry.Parse built the scheduler (empty otherwise): the
	// identity of its parts, by which callers tell policies apart (e.g.
	// evo-srsf and tiresias differ only in the allocator).
	Parts ListParts
}

// ListParts names a list scheduler's parts as a registry knows them.
type ListParts struct {
	Allocator, Ranking, Placer string
}

// NewListScheduler composes a list scheduler.
func NewListScheduler(label string, a Allocator, r Ranking, p Placer) *ListScheduler {
	return &ListScheduler{Label: label, Allocator: a, Ranking: r, Placer: p}
}

// Name implements Scheduler.
func (ls *ListScheduler) Name() string { return ls.Label }

// OnCompletions implements CompletionTriggered: greedy backfilling starts
// jobs at completions (SPEC §4.3), which the engine arranges from the
// options, so the list scheduler itself asks for nothing more.
func (ls *ListScheduler) OnCompletions() bool { return false }

// Plan implements Scheduler.
func (ls *ListScheduler) Plan(st *State, _ *Plan) error {
	if st.s.list != ls {
		return errors.New("simcore: a list scheduler plans only the simulation it was started with")
	}
	return ls.operation(st.s)
}

func (ls *ListScheduler) validate() error {
	if ls.Allocator == nil || ls.Ranking == nil || ls.Placer == nil {
		return fmt.Errorf("simcore: scheduler %q needs an allocator, a ranking and a placer", ls.Label)
	}
	return nil
}

// operation is steps 2–5 of §4.2 on the engine's planners.
func (ls *ListScheduler) operation(s *sim) error {
	if s.aware {
		s.snapshotClusters()
	}
	// Bring the job lists of clusters where something happened up to date;
	// the others keep their lists (and, if the ranking order holds, their
	// plan).
	for _, p := range s.clusters {
		if p.changed || s.opts.Backfill != BackfillNone {
			p.changed = true
			p.refilter()
		}
	}
	// Ranking keys: every schedulable job's, or for a time-invariant
	// ranking only those that can have moved (running jobs, whose
	// remaining work shrank, and jobs charged an overhead).
	switch {
	case s.batch != nil:
		s.batch.keys(s)
	case s.keyOn == nil:
		for _, j := range s.open {
			if c := s.assigned[j]; c >= 0 {
				s.setKey(j, c)
				s.seedKeyMemo(j, s.key[j])
			}
		}
	default:
		for _, j := range s.stale {
			if c := s.assigned[j]; c >= 0 && s.state[j] != done && !s.fixed[j] {
				s.setKey(j, c)
			}
		}
		s.stale = s.stale[:0]
		for _, j := range s.open {
			if s.state[j] == running {
				s.setKey(j, s.assigned[j])
			}
		}
	}
	for _, p := range s.clusters {
		if !p.reuse() {
			p.valid = false
		}
	}
	// 3. The allocator sets c_j for the schedulable jobs.
	if err := ls.Allocator.Allocate(&Allocation{s: s}); err != nil {
		return err
	}
	// 4. Build every cluster's plan. Only this operation's arrivals can
	// still lack a cluster.
	for _, j := range s.arrivals {
		if s.assigned[j] < 0 {
			return fmt.Errorf("simcore: instance %q: allocator %q left job %d without a cluster", s.inst.Name, ls.Label, s.inst.Jobs[j].ID)
		}
	}
	for _, p := range s.clusters {
		if err := p.plan(); err != nil {
			return err
		}
	}
	return nil
}

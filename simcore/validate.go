package simcore

import (
	"cmp"
	"fmt"
	"slices"
)

// capEvent is a change of the GPUs in use on one node of a plan.
type capEvent struct {
	cluster, node int
	at            int64
	delta         int // > 0 acquire, < 0 release
	job           int
}

// validatePlan checks the operation's plan against SPEC §4: every Js job
// was planned (a start or waiting) on a cluster it fits, no start lies
// before t, a placement holds exactly the job's workers on existing nodes,
// and no node is ever over capacity while the Jn jobs run to their finish
// and every planned job runs over [S_j, S_j + rem_j). The list scheduler's
// plans are checked only under Options.CheckPlans; every other
// scheduler's plan is checked at every operation.
func (s *sim) validatePlan() error {
	fail := func(j int, format string, a ...any) error {
		return fmt.Errorf("simcore: instance %q: scheduler %q at t=%d: job %d: %s", s.inst.Name, s.sched.Name(), s.now, s.inst.Jobs[j].ID, fmt.Sprintf(format, a...))
	}
	s.events = s.events[:0]
	for _, j := range s.active {
		job := &s.inst.Jobs[j]
		p := s.assigned[j]
		w := job.PerWorker()
		if s.fixed[j] {
			for _, sl := range s.placement[j] {
				s.events = append(s.events,
					capEvent{cluster: p, node: int(sl.Node), at: s.now, delta: int(sl.Workers) * w, job: j},
					capEvent{cluster: p, node: int(sl.Node), at: s.now + s.rem[j], delta: -int(sl.Workers) * w, job: j})
			}
			continue
		}
		if s.list == nil && !s.decided[j] {
			return fail(j, "in Js but the plan neither starts it nor makes it wait")
		}
		if p < 0 {
			return fail(j, "planned without a cluster")
		}
		if !s.feasible(j, p) {
			return fail(j, "planned on cluster %d, where it cannot run", p)
		}
		st := s.planStart[j]
		if st == never {
			if len(s.planPlace[j]) > 0 {
				return fail(j, "waits but has a placement")
			}
			continue
		}
		if st < s.now {
			return fail(j, "planned to start at %d, before the operation time", st)
		}
		nodes := s.inst.Clusters[p].Nodes
		workers := 0
		for k, sl := range s.planPlace[j] {
			if sl.Node < 0 || int(sl.Node) >= nodes {
				return fail(j, "placed on node %d of cluster %d, which has %d nodes", sl.Node, p, nodes)
			}
			if sl.Workers < 1 {
				return fail(j, "%d workers on node %d", sl.Workers, sl.Node)
			}
			for _, o := range s.planPlace[j][:k] {
				if o.Node == sl.Node {
					return fail(j, "node %d appears twice in its placement", sl.Node)
				}
			}
			workers += int(sl.Workers)
			end := st + s.remOn(j, p)
			s.events = append(s.events,
				capEvent{cluster: p, node: int(sl.Node), at: st, delta: int(sl.Workers) * w, job: j},
				capEvent{cluster: p, node: int(sl.Node), at: end, delta: -int(sl.Workers) * w, job: j})
		}
		if workers != job.Workers {
			return fail(j, "placement holds %d workers, the job has %d", workers, job.Workers)
		}
	}
	slices.SortFunc(s.events, func(a, b capEvent) int {
		return cmp.Or(cmp.Compare(a.cluster, b.cluster), cmp.Compare(a.node, b.node), cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta))
	})
	use := 0
	for i, e := range s.events {
		if i > 0 && (e.cluster != s.events[i-1].cluster || e.node != s.events[i-1].node) {
			use = 0
		}
		use += e.delta
		if g := s.inst.Clusters[e.cluster].GPUsPerNode; use > g {
			return fail(e.job, "node %d of cluster %d would hold %d GPUs at t=%d, capacity %d", e.node, e.cluster, use, e.at, g)
		}
	}
	return nil
}

package hydra

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/evogp/evogp/simcore"
)

// Rule names the Hydra-model schedulers (SPEC §13).
type Rule string

// The schedulers this package registers.
const (
	RuleHydra      Rule = "hydra"       // multi-round min-cost search
	RuleHydraSwap  Rule = "hydra-swap"  // Hydra with budget 0: the swap heuristic alone (Hydra* in the paper)
	RuleEDF        Rule = "edf"         // earliest deadline first
	RuleSJFFastest Rule = "sjf-fastest" // "Gavel" in Hydra's evaluation
	RuleAlloX      Rule = "allox"       // min-cost assignment (AlloX)
	RuleChronus    Rule = "chronus"     // simplified Chronus
)

// Rules lists every rule, in registration order.
func Rules() []Rule {
	return []Rule{RuleHydra, RuleHydraSwap, RuleEDF, RuleSJFFastest, RuleAlloX, RuleChronus}
}

// SectionName is the key of Params in simcore.Params.Sections.
const SectionName = "hydra"

// Compare modes of the multi-round search.
const (
	CompareAbsolute  = "absolute"
	CompareIncrement = "increment"
)

// Params are Hydra's parameters (the config keys hydra.penalty,
// hydra.budget and hydra.compare).
type Params struct {
	Penalty int64  `yaml:"penalty"` // f, ≥ 1 (default 1e9)
	Budget  int    `yaml:"budget"`  // node expansions per order search, ≥ 0 (0 = swap heuristic alone)
	Compare string `yaml:"compare"` // absolute (default) | increment
}

// DefaultParams are f = 1e9, DefaultBudget, absolute comparison.
func DefaultParams() Params {
	return Params{Penalty: DefaultPenalty, Budget: DefaultBudget, Compare: CompareAbsolute}
}

// Validate checks the ranges.
func (p Params) Validate() error {
	switch {
	case p.Penalty < 1:
		return fmt.Errorf("hydra.penalty = %d: must be ≥ 1", p.Penalty)
	case p.Budget < 0:
		return fmt.Errorf("hydra.budget = %d: must be ≥ 0", p.Budget)
	case p.Compare != CompareAbsolute && p.Compare != CompareIncrement:
		return fmt.Errorf("hydra.compare = %q: must be %s or %s", p.Compare, CompareAbsolute, CompareIncrement)
	}
	return nil
}

// Register adds the Hydra-model schedulers (hydra, hydra-swap, edf,
// sjf-fastest, allox, chronus) to a simcore registry. Hydra reads its
// Params from the section SectionName of the simcore.Params it is built
// with (DefaultParams when absent).
func Register(r *simcore.Registry) {
	for _, rule := range Rules() {
		r.Scheduler(string(rule), func(label string, p simcore.Params) (simcore.Scheduler, error) {
			hp, err := simcore.Section(p, SectionName, DefaultParams())
			if err != nil {
				return nil, err
			}
			if err := hp.Validate(); err != nil {
				return nil, err
			}
			if rule == RuleHydraSwap {
				hp.Budget = 0
			}
			return NewScheduler(rule, label, hp), nil
		})
	}
}

// Scheduler is a Hydra-model scheduler as a simcore.Scheduler (SPEC §13):
// every job uses one GPU, a GPU is one GPU slot of a node (a node of a
// 1-GPU-per-node cluster is one GPU), scheduling operations happen at
// arrivals and completions, and a started job is never preempted or
// migrated. At every operation it builds a Problem — the GPUs with their
// cluster (as the type: durations are per cluster, d_{j,p}) and the
// remaining time of the job running there, and the waiting jobs with their
// remaining time on each cluster and their deadline — runs its rule, starts
// the head of every idle GPU's sequence and lets the other jobs wait.
// It holds no state between operations (Hydra re-plans every waiting job
// at every operation), so one value may serve parallel simulations; for the
// same reason an operation with no idle GPU skips the rule (every waiting
// job waits), which changes no outcome.
type Scheduler struct {
	rule   Rule
	label  string
	params Params
}

// NewScheduler builds the scheduler of rule; label names it in results.
func NewScheduler(rule Rule, label string, p Params) *Scheduler {
	if label == "" {
		label = string(rule)
	}
	return &Scheduler{rule: rule, label: label, params: p}
}

// Name is the scheduler's label.
func (s *Scheduler) Name() string { return s.label }

// OnCompletions asks for an operation at every completion (SPEC §13).
func (s *Scheduler) OnCompletions() bool { return true }

// gpuSlot locates one GPU: cluster, node.
type gpuSlot struct{ cluster, node int }

// checkModel refuses an instance with a job that needs more than one GPU.
func (s *Scheduler) checkModel(in *simcore.Instance) error {
	for _, j := range in.Jobs {
		if j.GPUs != 1 || j.Workers != 1 {
			return fmt.Errorf("scheduler %s: job %d uses %d GPUs on %d workers: Hydra's model (SPEC §13) runs every job on exactly one GPU",
				s.label, j.ID, j.GPUs, j.Workers)
		}
	}
	return nil
}

// Plan runs one scheduling operation.
func (s *Scheduler) Plan(st *simcore.State, pl *simcore.Plan) error {
	in := st.Instance()
	if st.Op() == 1 {
		if err := s.checkModel(in); err != nil {
			return err
		}
	}
	now := st.Now()
	P := st.Clusters()
	// The GPUs, cluster by cluster, node by node, slot by slot.
	var slots []gpuSlot
	first := make([]int, P) // index of cluster p's first GPU
	for p, c := range in.Clusters {
		first[p] = len(slots)
		for n := range c.Nodes {
			for range c.GPUsPerNode {
				slots = append(slots, gpuSlot{p, n})
			}
		}
	}
	prob := Problem{Types: P, GPUs: make([]GPU, len(slots))}
	for k, g := range slots {
		prob.GPUs[k].Type = g.cluster
	}
	// Running jobs occupy a slot of their node until they finish; running
	// jobs off their user cluster (in Js) are kept where they are.
	for _, j := range st.Active() {
		if !st.Running(j) {
			continue
		}
		p := st.Assigned(j)
		place := st.Placement(j)
		if len(place) != 1 || place[0].Workers != 1 {
			return fmt.Errorf("scheduler %s: running job %d is not on one GPU", s.label, in.Jobs[j].ID)
		}
		g := in.Clusters[p].GPUsPerNode
		k := first[p] + int(place[0].Node)*g
		for k < first[p]+int(place[0].Node+1)*g && prob.GPUs[k].Offset > 0 {
			k++
		}
		if k == first[p]+int(place[0].Node+1)*g {
			return fmt.Errorf("scheduler %s: node %d of cluster %d runs more jobs than it has GPUs", s.label, place[0].Node, p)
		}
		prob.GPUs[k].Offset = max(1, st.Remaining(j))
		if !st.IsFixed(j) {
			pl.Start(j, p, now, place)
		}
	}
	// The waiting jobs.
	var waiting []int
	for _, j := range st.Schedulable() {
		if st.Running(j) {
			continue
		}
		job := in.Jobs[j]
		pj := Job{ID: job.ID, Due: NoDue, Dur: make([]int64, P)}
		if job.Deadline > 0 {
			pj.Due = job.Deadline - now
		}
		for p := range P {
			if st.Feasible(j, p) {
				pj.Dur[p] = max(1, st.RemainingOn(j, p))
			}
		}
		prob.Jobs = append(prob.Jobs, pj)
		waiting = append(waiting, j)
	}
	if len(waiting) == 0 {
		return pl.Err()
	}
	if !slices.ContainsFunc(prob.GPUs, GPU.Idle) {
		// Nothing can start before the next operation, which re-plans every
		// waiting job from scratch: the plan would change nothing.
		for _, j := range waiting {
			pl.Wait(j, waitCluster(st, j))
		}
		return pl.Err()
	}
	sched, err := s.run(st, &prob)
	if err != nil {
		return fmt.Errorf("scheduler %s: %w", s.label, err)
	}
	placed := make([]bool, len(waiting))
	for k, q := range sched.Queues {
		for i, w := range q {
			j := waiting[w]
			placed[w] = true
			if i == 0 && prob.GPUs[k].Idle() {
				pl.Start(j, slots[k].cluster, now, []simcore.Slot{{Node: int32(slots[k].node), Workers: 1}})
			} else {
				pl.Wait(j, slots[k].cluster)
			}
		}
	}
	for w, j := range waiting {
		if !placed[w] {
			pl.Wait(j, waitCluster(st, j))
		}
	}
	return pl.Err()
}

// waitCluster is where an unplaced waiting job waits: its current cluster,
// else its user cluster, else the first cluster it can run on.
func waitCluster(st *simcore.State, j int) int {
	if p := st.Assigned(j); p >= 0 && st.Feasible(j, p) {
		return p
	}
	if p := st.Job(j).Cluster; st.Feasible(j, p) {
		return p
	}
	for p := range st.Clusters() {
		if st.Feasible(j, p) {
			return p
		}
	}
	return 0
}

// run applies the rule to one operation's problem.
func (s *Scheduler) run(st *simcore.State, p *Problem) (Schedule, error) {
	switch s.rule {
	case RuleHydra, RuleHydraSwap:
		o := SearchOptions{Options: Options{Penalty: s.params.Penalty, Budget: s.params.Budget}, Increment: s.params.Compare == CompareIncrement}
		sched, _, err := Search(st.Context(), p, o)
		return sched, err
	case RuleEDF:
		return EDF(p)
	case RuleSJFFastest:
		return SJFFastest(p)
	case RuleAlloX:
		return AlloX(st.Context(), p)
	case RuleChronus:
		h := fnv.New64a()
		h.Write([]byte(st.Instance().Name))
		return Chronus(p, h.Sum64())
	}
	return Schedule{}, errors.New("unknown rule")
}

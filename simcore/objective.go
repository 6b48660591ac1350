package simcore

import (
	"fmt"
	"math"
	"strings"
)

// ObjectiveKind is one scalarisation of the §6 measures (smaller is
// better). A kind says, side by side, the three values evogp computes:
//
//   - Final, the objective of a finished simulation (Metrics.Objective);
//   - AtT, the objective at an operation time t of the jobs not yet
//     finished, given where they would start and finish: the fitness EVO
//     scores an assignment with (SPEC §11);
//   - Bound, a lower bound at t of Final, which early stop
//     (Options.StopAbove) compares with its threshold.
//
// TestObjectiveKindsAgree checks them against each other for every kind:
// Bound never exceeds Final on random instances, and AtT over a finished
// run's jobs, taken from its first arrival, is Final up to rounding.
//
// A new kind is one file with a comparable type implementing ObjectiveKind
// (as MultiCluster, SingleCluster and DeadlineAware are implemented below)
// and its line in ObjectiveKinds; configs, the learner and the command
// line then accept its name.
type ObjectiveKind interface {
	// Name is the kind's name in configs (objective.kind) and on the
	// command line.
	Name() string
	// Doc says in a few words what the kind minimises, for help texts.
	Doc() string
	// Describe is the objective o of this kind with its parameters, as a
	// learner run records it.
	Describe(o Objective) string
	// Reads says which parameters of Objective the kind reads: an
	// objective is its kind and those parameters (a record of it, such as
	// best.json's, leaves the others out), and a sweep over a parameter
	// the kind does not read changes nothing.
	Reads() ObjectiveParams
	// Validate checks the parameters of o that the kind reads, beyond the
	// weights Objective.Validate always checks.
	Validate(o Objective) error
	// Final is the objective of finished metrics m.
	Final(o Objective, m Metrics) float64
	// AtT is the objective at operation time now of terms t (t.Jobs > 0)
	// on clusters of capacity GPUs in all.
	AtT(o Objective, t ObjectiveTerms, now int64, capacity float64) float64
	// Bound is a lower bound of the final objective given the bounds b of
	// its terms at an operation time.
	Bound(o Objective, b ObjectiveBound) float64
}

// ObjectiveParams says which parameters of an Objective its kind reads.
type ObjectiveParams struct {
	Weights bool // ω1, ω2, ω3
	Omega   bool // ω
}

// The built-in kinds. Their types are unexported; use the constants.
const (
	// MultiCluster is Eq. 5: ω1·cq_avg + ω2·cq_max + ω3·(1 − util).
	MultiCluster multiCluster = 0
	// SingleCluster is Eq. 16: ω·avg_jct + (1−ω)·max_qt.
	SingleCluster singleCluster = 0
	// DeadlineAware is ω·avg_jct + (1−ω)·mean tardiness (hours; the
	// tardiness of a job without a deadline is 0): the trade-off of
	// deadline-aware scheduling on heterogeneous GPUs (SPEC §12), not an
	// equation of the EVO-GP paper.
	DeadlineAware deadlineAware = 0
)

// ObjectiveKinds is the table of objective kinds, in the order help texts
// list them: the one place a kind is registered.
func ObjectiveKinds() []ObjectiveKind {
	return []ObjectiveKind{
		MultiCluster,
		SingleCluster,
		DeadlineAware,
	}
}

// ObjectiveKindNames are the names of ObjectiveKinds, in order.
func ObjectiveKindNames() []string {
	kinds := ObjectiveKinds()
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name()
	}
	return names
}

// ObjectiveKindsUsage lists every kind as "name (doc)", separated by " | ",
// for a flag's help text.
func ObjectiveKindsUsage() string {
	var parts []string
	for _, k := range ObjectiveKinds() {
		parts = append(parts, fmt.Sprintf("%s (%s)", k.Name(), k.Doc()))
	}
	return strings.Join(parts, " | ")
}

// OneOf joins names as "a, b or c", for error messages.
func OneOf(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// LookupObjectiveKind finds the kind named name in kinds.
func LookupObjectiveKind(kinds []ObjectiveKind, name string) (ObjectiveKind, bool) {
	for _, k := range kinds {
		if k.Name() == name {
			return k, true
		}
	}
	return nil, false
}

// ParseObjectiveKind reads the name of a kind of ObjectiveKinds ("multi",
// Eq. 5, also for ""; "single", Eq. 16; "deadline").
func ParseObjectiveKind(s string) (ObjectiveKind, error) {
	if s == "" {
		return MultiCluster, nil
	}
	if k, ok := LookupObjectiveKind(ObjectiveKinds(), s); ok {
		return k, nil
	}
	return nil, fmt.Errorf("unknown objective kind %q: want %s", s, OneOf(ObjectiveKindNames()))
}

// Objective is a scalar objective over Metrics (smaller is better).
type Objective struct {
	Kind    ObjectiveKind // nil is MultiCluster
	Weights [3]float64    // ω1, ω2, ω3 for MultiCluster
	Omega   float64       // ω for SingleCluster and DeadlineAware
}

// DefaultObjective is Eq. 5 with ω = (1, 1, 1).
func DefaultObjective() Objective {
	return Objective{Kind: MultiCluster, Weights: [3]float64{1, 1, 1}, Omega: 0.5}
}

// kind is o.Kind, MultiCluster when unset.
func (o Objective) kind() ObjectiveKind {
	if o.Kind == nil {
		return MultiCluster
	}
	return o.Kind
}

// isZero reports whether o is the zero objective (Eq. 5 without weights),
// which Simulate replaces with DefaultObjective.
func (o Objective) isZero() bool {
	return (o.Kind == nil || o.Kind == MultiCluster) && o.Weights == [3]float64{} && o.Omega == 0
}

// String describes o with its parameters (ObjectiveKind.Describe).
func (o Objective) String() string { return o.kind().Describe(o) }

// Value evaluates the objective on m.
func (o Objective) Value(m Metrics) float64 { return o.kind().Final(o, m) }

// AtT is the objective at operation time now of terms t on clusters of
// capacity GPUs in all (ObjectiveKind.AtT); 0 without jobs.
func (o Objective) AtT(t ObjectiveTerms, now int64, capacity float64) float64 {
	if t.Jobs == 0 {
		return 0
	}
	return o.kind().AtT(o, t, now, capacity)
}

// Reads says which parameters o's kind reads (ObjectiveKind.Reads).
func (o Objective) Reads() ObjectiveParams { return o.kind().Reads() }

// LowerBound is a lower bound of the final objective (ObjectiveKind.Bound).
func (o Objective) LowerBound(b ObjectiveBound) float64 { return o.kind().Bound(o, b) }

// Validate rejects weights that are negative or not finite, and what the
// kind's own Validate rejects.
func (o Objective) Validate() error {
	for i, w := range o.Weights {
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("objective weight ω%d = %v: must be a finite number ≥ 0", i+1, w)
		}
	}
	return o.kind().Validate(o)
}

// validateOmega rejects an ω outside [0, 1].
func validateOmega(o Objective) error {
	if !(o.Omega >= 0 && o.Omega <= 1) {
		return fmt.Errorf("objective omega = %v: must be in [0, 1]", o.Omega)
	}
	return nil
}

// Tardiness is max(0, finish − deadline) in seconds, 0 without a deadline
// (deadline ≤ 0): the one definition of a job's tardiness.
func Tardiness(deadline, finish int64) int64 {
	if deadline <= 0 || finish <= deadline {
		return 0
	}
	return finish - deadline
}

// ObjectiveTerms aggregate the unfinished jobs of an operation at time t
// (on one cluster, or merged over clusters) for ObjectiveKind.AtT: each job
// has queued q_j^(t) seconds by its start S_j and finishes at F_j = S_j +
// rem_j. Sums are in seconds.
type ObjectiveTerms struct {
	SumUQ, MaxUQ float64 // Σ and max of u_j·q_j^(t)
	SumJCT       float64 // Σ (F_j − a_j)
	MaxQ         float64 // max q_j^(t)
	MaxF         int64   // max F_j (start it at t)
	Work         float64 // Σ g_j·rem_j
	Tard         float64 // Σ Tardiness(deadline_j, F_j)
	Jobs         int
}

// Add counts one unfinished job that has queued q seconds by its start at
// and then runs rem seconds: q_j^(t) = q, F_j = at + rem.
func (c *ObjectiveTerms) Add(job *Job, q, at, rem int64) {
	uq := float64(job.Priority) * float64(q)
	f := at + rem
	c.SumUQ += uq
	c.MaxUQ = max(c.MaxUQ, uq)
	c.SumJCT += float64(f - job.Arrival)
	c.MaxQ = max(c.MaxQ, float64(q))
	c.MaxF = max(c.MaxF, f)
	c.Work += float64(job.GPUs) * float64(rem)
	c.Tard += float64(Tardiness(job.Deadline, f))
	c.Jobs++
}

// Merge adds the jobs of o.
func (c *ObjectiveTerms) Merge(o ObjectiveTerms) {
	c.SumUQ += o.SumUQ
	c.MaxUQ = max(c.MaxUQ, o.MaxUQ)
	c.SumJCT += o.SumJCT
	c.MaxQ = max(c.MaxQ, o.MaxQ)
	c.MaxF = max(c.MaxF, o.MaxF)
	c.Work += o.Work
	c.Tard += o.Tard
	c.Jobs += o.Jobs
}

// ObjectiveBound are lower bounds, at an operation time t, of the final
// terms of the objective (hours), for ObjectiveKind.Bound. Queuing times
// only grow: a settled job's terms are final (finished, or running to a
// known finish), another arrived job's are at least those so far (its JCT
// at least t − a_j plus its shortest remaining time, its tardiness that of
// this earliest finish), a future job's at least 0. Jobs not yet arrived
// count in SumJCT and Tard only through WithFuture, which costs a pass
// over them.
type ObjectiveBound struct {
	Jobs         int     // |J|, all jobs of the instance
	SumUQ, MaxUQ float64 // ≤ Σ and max of u_j q_j
	MaxQ         float64 // ≤ max q_j
	SumJCT       float64 // ≤ Σ JCT_j over settled and arrived jobs
	Tard         float64 // ≤ Σ tardiness over settled and arrived jobs
	s            *sim
}

// WithFuture is b with the jobs not yet arrived added to SumJCT and Tard:
// each at least its shortest duration, and the tardiness of finishing
// that long after its arrival.
func (b ObjectiveBound) WithFuture() ObjectiveBound {
	s := b.s
	for _, j := range s.order[s.next:] {
		job := &s.inst.Jobs[j]
		d := s.minTrueRem(j)
		b.SumJCT += Hours(d)
		b.Tard += Hours(Tardiness(job.Deadline, job.Arrival+d))
	}
	return b
}

// UtilUpper is an upper bound of the final utilisation C_u, at most 1, if
// one is known: while jobs remain (so max_j F_j > t) after the first
// arrival, W / (C · (t − min_j a_j)) with W an upper bound of the work
// Σ g_j d_j (exact on homogeneous instances; the largest per-type duration
// otherwise) and C the capacity.
func (b ObjectiveBound) UtilUpper() (float64, bool) {
	s := b.s
	first := s.inst.Jobs[s.order[0]].Arrival
	span := s.now - first
	if span <= 0 || len(s.active)+len(s.order)-s.next == 0 {
		return 0, false
	}
	if s.workUB == 0 {
		s.workUB = s.maxWork()
	}
	capacity := 0.0
	for _, c := range s.inst.Clusters {
		capacity += float64(c.GPUs())
	}
	return math.Min(1, s.workUB/(capacity*float64(span))), true
}

// multiCluster is Eq. 5 (MultiCluster).
type multiCluster uint8

func (multiCluster) Name() string { return "multi" }
func (multiCluster) Doc() string  { return "Eq. 5" }
func (multiCluster) Describe(o Objective) string {
	w := o.Weights
	return fmt.Sprintf("multi weights=%v,%v,%v (Eq. 5)", w[0], w[1], w[2])
}
func (multiCluster) Validate(Objective) error { return nil }

func (multiCluster) Reads() ObjectiveParams { return ObjectiveParams{Weights: true} }

func (multiCluster) Final(o Objective, m Metrics) float64 {
	return o.Weights[0]*m.CQAvg + o.Weights[1]*m.CQMax + o.Weights[2]*(1-m.Util)
}

// AtT: the utilisation at t is the work left over the capacity until the
// last finish (1 if nothing runs past t).
func (multiCluster) AtT(o Objective, t ObjectiveTerms, now int64, capacity float64) float64 {
	util := 1.0
	if span := t.MaxF - now; span > 0 {
		util = t.Work / (capacity * float64(span))
	}
	return o.Weights[0]*Hours(1)*t.SumUQ/float64(t.Jobs) + o.Weights[1]*Hours(1)*t.MaxUQ + o.Weights[2]*(1-util)
}

// Bound: C_q,avg ≥ Σ u_j q_j / |J|, C_q,max ≥ the largest u_j q_j so far,
// 1 − C_u ≥ 1 − UtilUpper.
func (multiCluster) Bound(o Objective, b ObjectiveBound) float64 {
	lb := o.Weights[0]*b.SumUQ/float64(b.Jobs) + o.Weights[1]*b.MaxUQ
	if u, ok := b.UtilUpper(); ok {
		lb += o.Weights[2] * (1 - u)
	}
	return lb
}

// singleCluster is Eq. 16 (SingleCluster).
type singleCluster uint8

func (singleCluster) Name() string { return "single" }
func (singleCluster) Doc() string  { return "Eq. 16" }
func (singleCluster) Describe(o Objective) string {
	return fmt.Sprintf("single omega=%v (Eq. 16)", o.Omega)
}
func (singleCluster) Validate(o Objective) error { return validateOmega(o) }

func (singleCluster) Reads() ObjectiveParams { return ObjectiveParams{Omega: true} }

func (singleCluster) Final(o Objective, m Metrics) float64 {
	return o.Omega*m.AvgJCT + (1-o.Omega)*m.MaxQT
}

func (singleCluster) AtT(o Objective, t ObjectiveTerms, _ int64, _ float64) float64 {
	return o.Omega*Hours(1)*t.SumJCT/float64(t.Jobs) + (1-o.Omega)*Hours(1)*t.MaxQ
}

// Bound: avg JCT ≥ (Σ_settled JCT_j + Σ_arrived (t − a_j + rem_j) +
// Σ_future d_min,j) / |J|, max q ≥ the largest q so far.
func (singleCluster) Bound(o Objective, b ObjectiveBound) float64 {
	b = b.WithFuture()
	return o.Omega*b.SumJCT/float64(b.Jobs) + (1-o.Omega)*b.MaxQ
}

// deadlineAware is ω·avg JCT + (1−ω)·mean tardiness (DeadlineAware).
type deadlineAware uint8

func (deadlineAware) Name() string { return "deadline" }
func (deadlineAware) Doc() string  { return "ω·avg JCT + (1−ω)·mean tardiness" }
func (deadlineAware) Describe(o Objective) string {
	return fmt.Sprintf("deadline omega=%v (ω·avg JCT + (1−ω)·mean tardiness)", o.Omega)
}
func (deadlineAware) Validate(o Objective) error { return validateOmega(o) }

func (deadlineAware) Reads() ObjectiveParams { return ObjectiveParams{Omega: true} }

func (deadlineAware) Final(o Objective, m Metrics) float64 {
	mean := 0.0
	if m.Jobs > 0 {
		mean = m.TotalTardiness / float64(m.Jobs)
	}
	return o.Omega*m.AvgJCT + (1-o.Omega)*mean
}

func (deadlineAware) AtT(o Objective, t ObjectiveTerms, _ int64, _ float64) float64 {
	return o.Omega*Hours(1)*t.SumJCT/float64(t.Jobs) + (1-o.Omega)*Hours(1)*t.Tard/float64(t.Jobs)
}

// Bound: as Eq. 16's for avg JCT, and each job's tardiness at least that
// of its earliest possible finish.
func (deadlineAware) Bound(o Objective, b ObjectiveBound) float64 {
	b = b.WithFuture()
	return o.Omega*b.SumJCT/float64(b.Jobs) + (1-o.Omega)*b.Tard/float64(b.Jobs)
}

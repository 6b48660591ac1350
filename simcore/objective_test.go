package simcore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// maxWait is a test objective kind, the longest queuing time max_j q_j
// (hours), defined here and registered in testObjectiveKinds: that this
// is all a new kind takes (one type, one registration line) is what the
// tests below show, since they run it through Simulate's final value,
// early stop and EVO's fitness like the built-in kinds.
type maxWait struct{}

func (maxWait) Name() string                         { return "maxwait" }
func (maxWait) Doc() string                          { return "max queuing time" }
func (maxWait) Describe(Objective) string            { return "maxwait" }
func (maxWait) Validate(Objective) error             { return nil }
func (maxWait) Reads() ObjectiveParams               { return ObjectiveParams{} }
func (maxWait) Final(_ Objective, m Metrics) float64 { return m.MaxQT }
func (maxWait) AtT(_ Objective, t ObjectiveTerms, _ int64, _ float64) float64 {
	return Hours(1) * t.MaxQ
}
func (maxWait) Bound(_ Objective, b ObjectiveBound) float64 { return b.MaxQ }

// testObjectiveKinds is the table with the test kind registered.
func testObjectiveKinds() []ObjectiveKind {
	return append(ObjectiveKinds(), maxWait{}) // the registration line
}

// randomObjective is an objective of kind k with random parameters.
func randomObjective(rng *rand.Rand, k ObjectiveKind) Objective {
	return Objective{Kind: k, Weights: [3]float64{rng.Float64() * 2, rng.Float64() * 2, rng.Float64() * 2}, Omega: rng.Float64()}
}

// withDeadlines gives about half of inst's jobs a deadline, some of which
// they miss.
func withDeadlines(rng *rand.Rand, inst *Instance) {
	for k := range inst.Jobs {
		if rng.IntN(2) == 0 {
			inst.Jobs[k].Deadline = inst.Jobs[k].Arrival + inst.Jobs[k].Duration + int64(rng.IntN(300))
		}
	}
}

// finishedTerms are the terms at t = the first arrival of a finished run's
// jobs: every job queued its whole queuing time and finished when it did,
// so AtT of them is the final objective up to rounding.
func finishedTerms(jobs []JobResult) (ObjectiveTerms, int64) {
	t := ObjectiveTerms{MaxF: jobs[0].Arrival}
	first := jobs[0].Arrival
	for _, j := range jobs {
		first = min(first, j.Arrival)
	}
	t.MaxF = first
	for _, j := range jobs {
		job := Job{Arrival: j.Arrival, GPUs: j.GPUs, Priority: j.Priority, Deadline: j.Deadline}
		t.Add(&job, j.Queue, j.Finish-j.Duration, j.Duration)
	}
	return t, first
}

// The three values of every kind agree: the final value is Metrics'
// Objective; AtT over a finished run's jobs from its first arrival is the
// final value; and the early-stop bound never exceeds the final value
// (probed with Options.StopAbove, which reports the bound that stopped a
// run), while it does stop some runs.
func TestObjectiveKindsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(151, 157))
	n := 60
	if testing.Short() {
		n = 15
	}
	for _, kind := range testObjectiveKinds() {
		stops := 0
		for i := range n {
			inst := randomInstance(rng, fmt.Sprintf("%s-%d", kind.Name(), i))
			withDeadlines(rng, inst)
			obj := randomObjective(rng, kind)
			for m, spec := range allSchedulerSpecs() {
				mode := goldenModes()[(i+m)%len(goldenModes())]
				mode.Objective = obj
				full, err := Simulate(context.Background(), inst, schedulerFor(t, spec), mode)
				if err != nil {
					t.Fatal(err)
				}
				final := full.Metrics.Objective
				if want := kind.Final(obj, full.Metrics); final != want {
					t.Fatalf("%s %s: Metrics.Objective %v, Final %v", inst.Name, spec, final, want)
				}
				terms, first := finishedTerms(full.Jobs)
				if at := obj.AtT(terms, first, float64(inst.capacity())); math.Abs(at-final) > 1e-9*math.Max(1, math.Abs(final)) {
					t.Fatalf("%s %s %s: AtT of the finished jobs %v, final %v", kind.Name(), inst.Name, spec, at, final)
				}
				for _, f := range []float64{1, 0.8, 0.5, 0.2} {
					opts := mode
					opts.StopAbove = final * f
					if opts.StopAbove <= 0 {
						continue
					}
					res, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
					var be *BoundExceeded
					switch {
					case err == nil:
						if res.Metrics.Objective != final {
							t.Fatalf("%s %s %s: a run that did not stop ended at %v, not %v", kind.Name(), inst.Name, spec, res.Metrics.Objective, final)
						}
					case errors.As(err, &be):
						stops++
						if f == 1 || be.LowerBound > final*(1+1e-9)+1e-12 {
							t.Fatalf("%s %s %s: bound %v at t=%d, final %v (threshold factor %v)", kind.Name(), inst.Name, spec, be.LowerBound, be.Time, final, f)
						}
					default:
						t.Fatal(err)
					}
				}
			}
		}
		if stops == 0 {
			t.Errorf("%s: the bound never stopped a run", kind.Name())
		}
	}
}

// capacity is Σ_p G_p·N_p.
func (inst *Instance) capacity() int {
	c := 0
	for _, cl := range inst.Clusters {
		c += cl.GPUs()
	}
	return c
}

// The table: unique names, every name parses to its kind, "" is Eq. 5,
// an unknown name is an error listing the names, and the descriptions a
// learner run records (best.json's "objective") are exactly these.
func TestObjectiveTable(t *testing.T) {
	names := ObjectiveKindNames()
	if !slices.Equal(names, []string{"multi", "single", "deadline"}) {
		t.Fatalf("names %v", names)
	}
	for _, k := range ObjectiveKinds() {
		got, err := ParseObjectiveKind(k.Name())
		if err != nil || got != k {
			t.Fatalf("%s: %v %v", k.Name(), got, err)
		}
	}
	if k, err := ParseObjectiveKind(""); err != nil || k != MultiCluster {
		t.Fatal(k, err)
	}
	if _, err := ParseObjectiveKind("maxwait"); err == nil || err.Error() != `unknown objective kind "maxwait": want multi, single or deadline` {
		t.Fatal(err)
	}
	if k, ok := LookupObjectiveKind(testObjectiveKinds(), "maxwait"); !ok || k != (maxWait{}) {
		t.Fatal("the registered test kind is not found by name")
	}
	for o, want := range map[Objective]string{
		{Kind: MultiCluster, Weights: [3]float64{1, 0.5, 2}}: "multi weights=1,0.5,2 (Eq. 5)",
		{Weights: [3]float64{1, 1, 1}}:                       "multi weights=1,1,1 (Eq. 5)",
		{Kind: SingleCluster, Omega: 0.25}:                   "single omega=0.25 (Eq. 16)",
		{Kind: DeadlineAware, Omega: 0.5}:                    "deadline omega=0.5 (ω·avg JCT + (1−ω)·mean tardiness)",
	} {
		if got := o.String(); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
	if u := ObjectiveKindsUsage(); u != "multi (Eq. 5) | single (Eq. 16) | deadline (ω·avg JCT + (1−ω)·mean tardiness)" {
		t.Errorf("usage %q", u)
	}
	for _, c := range []struct {
		o   Objective
		bad bool
	}{
		{Objective{Kind: MultiCluster, Omega: 7}, false}, // ω unused by Eq. 5
		{Objective{Kind: SingleCluster, Omega: 1.5}, true},
		{Objective{Kind: DeadlineAware, Omega: -0.1}, true},
		{Objective{Kind: SingleCluster, Omega: 0.5, Weights: [3]float64{-1}}, true},
		{Objective{Kind: maxWait{}}, false},
	} {
		if err := c.o.Validate(); (err != nil) != c.bad {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
	// The zero objective, and Eq. 5 without weights, are replaced by the
	// default, as they were when the kind was an integer.
	for _, o := range []Objective{{}, {Kind: MultiCluster}} {
		if !o.isZero() {
			t.Errorf("%+v is not zero", o)
		}
	}
	if (Objective{Kind: SingleCluster}).isZero() {
		t.Error("Eq. 16 with ω = 0 is not the zero objective")
	}
}

// Tardiness by hand, and the metrics sum it.
func TestTardiness(t *testing.T) {
	for _, c := range []struct{ deadline, finish, want int64 }{
		{0, 100, 0}, {-5, 100, 0}, {100, 100, 0}, {100, 99, 0}, {100, 130, 30},
	} {
		if got := Tardiness(c.deadline, c.finish); got != c.want {
			t.Errorf("Tardiness(%d, %d) = %d, want %d", c.deadline, c.finish, got, c.want)
		}
	}
	jobs := []JobResult{{Arrival: 0, Duration: 3600, Finish: 3600, Deadline: 1800, GPUs: 1, Priority: 1}, {Arrival: 0, Duration: 3600, Finish: 7200, Deadline: 9000, GPUs: 1, Priority: 1, Queue: 3600}}
	m := ComputeMetrics([]Cluster{{Nodes: 1, GPUsPerNode: 1}}, jobs, DefaultObjective())
	if m.TotalTardiness != 0.5 || m.DeadlineMisses != 1 {
		t.Fatalf("tardiness %v h, %d misses; want 0.5 h, 1", m.TotalTardiness, m.DeadlineMisses)
	}
}

// TestObjectiveReadsMatchesDescribe: a kind reads a parameter exactly when
// two values of it describe the objective differently (Describe names
// every parameter its kind reads), for every kind.
func TestObjectiveReadsMatchesDescribe(t *testing.T) {
	for _, k := range testObjectiveKinds() {
		o := Objective{Kind: k, Weights: [3]float64{1, 1, 1}, Omega: 0.5}
		lo, hi := o, o
		lo.Omega, hi.Omega = 0.25, 0.75
		if got, want := k.Reads().Omega, k.Describe(lo) != k.Describe(hi); got != want {
			t.Errorf("%s: Reads().Omega = %v, but ω = 0.25 and 0.75 describe differently: %v", k.Name(), got, want)
		}
		lo, hi = o, o
		lo.Weights, hi.Weights = [3]float64{1, 2, 3}, [3]float64{3, 2, 1}
		if got, want := k.Reads().Weights, k.Describe(lo) != k.Describe(hi); got != want {
			t.Errorf("%s: Reads().Weights = %v, but two weightings describe differently: %v", k.Name(), got, want)
		}
	}
}

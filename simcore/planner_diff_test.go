package simcore_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// diffModes are every backfill mode under both triggers, and the
// preemptive mode with an overhead.
func diffModes() []simcore.Options {
	var out []simcore.Options
	for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy, simcore.BackfillStrict, simcore.BackfillPreemptive} {
		for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
			out = append(out, simcore.Options{Trigger: tr, Backfill: b, RecordSegments: true})
		}
	}
	return append(out, simcore.Options{Backfill: simcore.BackfillPreemptive, PreemptOverhead: 11, RecordSegments: true})
}

// diffSchedulers are every ranking under MCT and the user allocator, both
// placers, plus d − q·q (order changes with q) and a NaN-producing one.
func diffSchedulers(t testing.TB) []simcore.Scheduler {
	var out []simcore.Scheduler
	for _, spec := range []string{"spark", "liquid", "tiresias", "lyra", "mct+sjf+bestfit", "mct+srtf+roundrobin",
		"user+fifo+bestfit", "user+srsf+roundrobin", "mct+lyra+roundrobin"} {
		s, err := simcore.ParseScheduler(spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	out = append(out,
		simcore.NewListScheduler("d-q*q", simcore.MCT{}, dMinusQQ(), simcore.BestFit{}),
		simcore.NewListScheduler("nan", simcore.MCT{}, simcore.RankingFunc(func(j simcore.JobView) float64 {
			if j.ID%5 == 0 {
				return math.NaN()
			}
			return float64(j.Remaining) - float64(j.Queued)
		}), simcore.RoundRobin{}))
	return out
}

// assertSameAsReference requires sched on inst to give, in every mode,
// exactly the result of the reference planner (replan every cluster at
// every operation, conservative reservations by rescanning), and the
// invariants to hold.
func assertSameAsReference(t *testing.T, inst *simcore.Instance, sched simcore.Scheduler) {
	t.Helper()
	for _, opts := range diffModes() {
		a, err := simcore.Simulate(context.Background(), inst, sched, opts)
		if err != nil {
			t.Fatalf("%s %s %+v: %v", inst.Name, sched.Name(), opts, err)
		}
		if opts.PreemptOverhead == 0 {
			if err := simcore.CheckInvariants(inst, a); err != nil {
				t.Fatalf("%s %s %+v: %v", inst.Name, sched.Name(), opts, err)
			}
		}
		assertMatchesReplanAll(t, inst, sched, opts, a)
	}
}

// assertMatchesReplanAll requires a, the result of sched on inst under
// opts, to equal the reference planner's (TestHooks.AlwaysReplan, SimulateReplanning), naming the
// first job that differs.
func assertMatchesReplanAll(t *testing.T, inst *simcore.Instance, sched simcore.Scheduler, opts simcore.Options, a simcore.Result) {
	t.Helper()
	b, err := simcore.SimulateReplanning(context.Background(), inst, sched, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		for i := range a.Jobs {
			if a.Jobs[i] != b.Jobs[i] {
				t.Fatalf("%s %s %+v: job %d: got %+v, reference %+v", inst.Name, sched.Name(), opts, a.Jobs[i].ID, a.Jobs[i], b.Jobs[i])
			}
		}
		t.Fatalf("%s %s %+v: result differs from the reference planner", inst.Name, sched.Name(), opts)
	}
}

// smallRandomInstance: 1–3 clusters of 1–4 nodes of 2, 4 or 8 GPUs and
// 5–35 jobs with bursty arrivals.
// randomAndOverloaded returns nRandom small random instances followed by
// nGen Table II instances of 2–3 clusters with the given node range, jobs
// per node and offered load from 1.5 to loadMax (generator seed 77).
func randomAndOverloaded(t *testing.T, rng *rand.Rand, nRandom int, nodes [2]int, jobsPerNode, loadMax float64, nGen int) []*simcore.Instance {
	t.Helper()
	var insts []*simcore.Instance
	for i := range nRandom {
		insts = append(insts, smallRandomInstance(rng, fmt.Sprintf("random-%d", i)))
	}
	s := datasets.PaperSettings()
	s.Clusters = [2]int{2, 3}
	s.Nodes = nodes
	s.JobsPerNode = jobsPerNode
	s.LoadMin, s.LoadMax = 1.5, loadMax
	gen, err := datasets.Generate(s, 77, nGen)
	if err != nil {
		t.Fatal(err)
	}
	for i := range gen {
		insts = append(insts, &gen[i])
	}
	return insts
}

func smallRandomInstance(rng *rand.Rand, name string) *simcore.Instance {
	inst := &simcore.Instance{Name: name}
	for range 1 + rng.IntN(3) {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 1 + rng.IntN(4), GPUsPerNode: []int{2, 4, 8}[rng.IntN(3)]})
	}
	t := int64(0)
	for id := range 5 + rng.IntN(30) {
		if rng.IntN(3) > 0 {
			t += int64(rng.IntN(50))
		}
		for {
			w := []int{1, 1, 2, 4, 8}[rng.IntN(5)]
			r := 1 + rng.IntN(4)
			j := simcore.Job{ID: int64(100 + id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)), Duration: 1 + int64(rng.IntN(200)),
				Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)}
			if j.FitsOn(inst.Clusters[j.Cluster]) {
				inst.Jobs = append(inst.Jobs, j)
				break
			}
		}
	}
	return inst
}

// phillyLikeInstance mimics the Philly trace's shape: virtual clusters of
// very different sizes, mostly 1-GPU jobs with some 2–16-GPU ones split in
// 8-GPU workers, heavy-tailed durations (minutes to days) and bursts of
// submissions.
func phillyLikeInstance(rng *rand.Rand, name string, jobs int) *simcore.Instance {
	inst := &simcore.Instance{Name: name}
	for _, n := range []int{1, 2, 6} {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: n, GPUsPerNode: 8})
	}
	t := int64(0)
	for id := range jobs {
		if rng.IntN(4) == 0 {
			t += int64(rng.ExpFloat64() * 600)
		}
		g := []int{1, 1, 1, 1, 1, 2, 4, 8, 16}[rng.IntN(9)]
		w := min(g, 8)
		j := simcore.Job{ID: int64(id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)),
			Duration: 1 + int64(math.Exp(4+rng.NormFloat64()*2)), Workers: g / w, GPUs: g, Priority: 1}
		for !j.FitsOn(inst.Clusters[j.Cluster]) {
			j.Cluster = (j.Cluster + 1) % len(inst.Clusters)
		}
		inst.Jobs = append(inst.Jobs, j)
	}
	return inst
}

func TestPlannerMatchesReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	scheds := diffSchedulers(t)
	for i := range 40 {
		inst := smallRandomInstance(rng, fmt.Sprintf("random-%d", i))
		for _, s := range scheds {
			assertSameAsReference(t, inst, s)
		}
	}
}

func TestPlannerMatchesReferenceOverloaded(t *testing.T) {
	s := datasets.PaperSettings()
	s.Clusters = [2]int{1, 3}
	s.Nodes = [2]int{2, 5}
	s.JobsPerNode = 20
	s.LoadMin, s.LoadMax = 1.5, 3
	insts, err := datasets.Generate(s, 31, 4)
	if err != nil {
		t.Fatal(err)
	}
	scheds := diffSchedulers(t)
	for i := range insts {
		for _, sc := range scheds {
			assertSameAsReference(t, &insts[i], sc)
		}
	}
}

func TestPlannerMatchesReferencePhillyLike(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 3))
	scheds := diffSchedulers(t)
	for i := range 3 {
		inst := phillyLikeInstance(rng, fmt.Sprintf("philly-like-%d", i), 150)
		for _, s := range scheds {
			assertSameAsReference(t, inst, s)
		}
	}
}

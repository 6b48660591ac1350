package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
)

// randomInstance draws a small, contended multi-cluster instance: few nodes,
// multi-worker jobs, bursts of simultaneous arrivals, mixed node sizes.
func randomInstance(rng *rand.Rand, name string) *Instance {
	inst := &Instance{Name: name}
	for range 1 + rng.IntN(3) {
		inst.Clusters = append(inst.Clusters, Cluster{Nodes: 1 + rng.IntN(4), GPUsPerNode: []int{2, 4, 8}[rng.IntN(3)]})
	}
	t := int64(0)
	for id := range 5 + rng.IntN(30) {
		if rng.IntN(3) > 0 {
			t += int64(rng.IntN(50))
		}
		for {
			w := []int{1, 1, 2, 4, 8}[rng.IntN(5)]
			r := 1 + rng.IntN(4)
			j := Job{ID: int64(100 + id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)), Duration: 1 + int64(rng.IntN(200)),
				Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)}
			if j.FitsOn(inst.Clusters[j.Cluster]) {
				inst.Jobs = append(inst.Jobs, j)
				break
			}
		}
	}
	rng.Shuffle(len(inst.Jobs), func(a, b int) { inst.Jobs[a], inst.Jobs[b] = inst.Jobs[b], inst.Jobs[a] })
	return inst
}

func allSchedulerSpecs() []string {
	return []string{"spark", "liquid", "tiresias", "lyra", "user+fifo+bestfit", "user+srsf+roundrobin", "mct+sjf+bestfit", "mct+srtf+roundrobin", "qdep"}
}

func schedulerFor(t testing.TB, spec string) Scheduler {
	if spec == "qdep" { // a ranking whose order changes over time, NaN included
		return NewListScheduler(spec, MCT{}, RankingFunc(func(j JobView) float64 {
			if j.ID%7 == 0 {
				return nanValue()
			}
			return float64(j.Remaining) - float64(j.Queued*j.Queued)/40
		}), BestFit{})
	}
	s, err := ParseScheduler(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func nanValue() float64 { var z float64; return z / z }

func TestInvariantsRandomInstances(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	modes := []Options{
		{}, {Trigger: TriggerArrivalCompletion}, {Backfill: BackfillConservative}, {Backfill: BackfillGreedy},
	}
	n := 240
	if testing.Short() {
		n = 60
	}
	for i := range n {
		inst := randomInstance(rng, fmt.Sprintf("rand-%d", i))
		for _, spec := range allSchedulerSpecs() {
			for m, opts := range modes {
				opts.RecordSegments = true
				res, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
				if err != nil {
					t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, err)
				}
				if err := CheckInvariants(inst, res); err != nil {
					t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, err)
				}
				if opts.Backfill == BackfillNone && (spec == "user+fifo+bestfit" || spec == "user+srsf+roundrobin") {
					// With the user allocator nothing runs off its user
					// cluster, so nothing is ever preempted or moved.
					for _, jr := range res.Jobs {
						if jr.Preemptions+jr.Migrations > 0 {
							t.Fatalf("%s %s: job %d preempted/migrated under the user allocator", inst.Name, spec, jr.ID)
						}
					}
				}
			}
		}
	}
}

func TestCheckInvariantsCatchesViolations(t *testing.T) {
	inst := reservationInstance()
	sched := schedulerFor(t, "user+fifo+bestfit")
	res, _ := Simulate(context.Background(), inst, sched, Options{RecordSegments: true})
	bad := res
	bad.Segments = append([]Segment(nil), res.Segments...)
	bad.Segments[2].Start, bad.Segments[2].End = 10, 20  // job 3 into the hole: still fits
	bad.Segments[1].Start, bad.Segments[1].End = 50, 100 // job 2 over job 1: 6 GPUs on a 4-GPU node
	if CheckInvariants(inst, bad) == nil {
		t.Fatal("overlapping jobs beyond capacity not detected")
	}
	bad.Segments = res.Segments[:2]
	if CheckInvariants(inst, bad) == nil {
		t.Fatal("missing work not detected")
	}
}

func TestDeterministicAcrossGoroutines(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	insts := make([]*Instance, 16)
	for i := range insts {
		insts[i] = randomInstance(rng, fmt.Sprint(i))
	}
	run := func(parallel bool) []Result {
		out := make([]Result, len(insts))
		var wg sync.WaitGroup
		for i, inst := range insts {
			f := func() {
				r, err := Simulate(context.Background(), inst, schedulerFor(t, "qdep"), Options{RecordSegments: true})
				if err != nil {
					t.Error(err)
				}
				out[i] = r
			}
			if parallel {
				wg.Add(1)
				go func() { defer wg.Done(); f() }()
			} else {
				f()
			}
		}
		wg.Wait()
		return out
	}
	a, b := run(false), run(true)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("serial and parallel simulations differ")
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Simulate(ctx, reservationInstance(), schedulerFor(t, "liquid"), Options{}); err == nil {
		t.Fatal("want context error")
	}
}

// Plan reuse across operations is an optimisation only: results must be
// identical to replanning every cluster at every operation.
func TestPlanReuseIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	for i := range 300 {
		inst := randomInstance(rng, fmt.Sprintf("reuse-%d", i))
		for _, spec := range allSchedulerSpecs() {
			for _, trig := range []Trigger{TriggerArrival, TriggerArrivalCompletion} {
				a, err := Simulate(context.Background(), inst, schedulerFor(t, spec), Options{Trigger: trig, RecordSegments: true})
				if err != nil {
					t.Fatal(err)
				}
				b, err := simulate(context.Background(), inst, schedulerFor(t, spec), Options{Trigger: trig, RecordSegments: true}, testHooks{alwaysReplan: true})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s %s trigger %d: plan reuse changed the result", inst.Name, spec, trig)
				}
			}
		}
	}
}

package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// With every estimate equal to the true duration, scheduling on estimates
// is scheduling at arrivals and completions on the truth: the engine then
// runs an operation at every completion and a plan's starts after t always
// lie at or beyond the next completion.
func TestExactEstimatesEqualArrivalCompletion(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	for i := range 80 {
		inst := randomInstance(rng, fmt.Sprintf("est-%d", i))
		withEst := *inst
		withEst.Jobs = append([]Job(nil), inst.Jobs...)
		for k := range withEst.Jobs {
			withEst.Jobs[k].Estimate = withEst.Jobs[k].Duration
		}
		for _, spec := range allSchedulerSpecs() {
			for _, b := range []Backfill{BackfillNone, BackfillConservative, BackfillGreedy} {
				want, err := Simulate(context.Background(), inst, schedulerFor(t, spec), Options{Trigger: TriggerArrivalCompletion, Backfill: b})
				if err != nil {
					t.Fatal(err)
				}
				got, err := Simulate(context.Background(), &withEst, schedulerFor(t, spec), Options{Backfill: b})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Jobs, want.Jobs) {
					t.Fatalf("%s %s backfill %d: exact estimates differ from arrival+completion", inst.Name, spec, b)
				}
			}
		}
	}
}

// Wrong estimates change the schedule, yet every invariant holds with the
// true durations: capacity, no start before arrival, every job finishes,
// each job runs exactly its true duration.
func TestWrongEstimatesKeepInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 53))
	changed := 0
	for i := range 200 {
		inst := randomInstance(rng, fmt.Sprintf("west-%d", i))
		est := *inst
		est.Jobs = append([]Job(nil), inst.Jobs...)
		for k := range est.Jobs {
			f := []float64{0.2, 0.5, 1, 2, 5}[rng.IntN(5)]
			est.Jobs[k].Estimate = max(1, int64(f*float64(est.Jobs[k].Duration)))
		}
		for _, spec := range allSchedulerSpecs() {
			for _, b := range []Backfill{BackfillNone, BackfillConservative, BackfillGreedy} {
				opts := Options{Backfill: b, RecordSegments: true, CheckPlans: true}
				got, err := Simulate(context.Background(), &est, schedulerFor(t, spec), opts)
				if err != nil {
					t.Fatalf("%s %s: %v", inst.Name, spec, err)
				}
				if err := CheckInvariants(&est, got); err != nil {
					t.Fatalf("%s %s backfill %d: %v", inst.Name, spec, b, err)
				}
				truth, _ := Simulate(context.Background(), inst, schedulerFor(t, spec), Options{Backfill: b, Trigger: TriggerArrivalCompletion})
				if !reflect.DeepEqual(got.Jobs, truth.Jobs) {
					changed++
				}
			}
		}
	}
	if changed == 0 {
		t.Fatal("estimates never changed a schedule")
	}
}

// Once a job has run, schedulers see d̂ − elapsed, at least 1 s.
func TestRemainingEstimate(t *testing.T) {
	inst := &Instance{Name: "rem", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 1}},
		Jobs: []Job{{ID: 1, Duration: 100, Estimate: 30, Workers: 1, GPUs: 1, Priority: 1}}}
	s := newSim(context.Background(), inst, NewListScheduler("x", UserAllocator{}, FIFO{}, BestFit{}), Options{}, testHooks{})
	s.assigned[0] = 0
	for _, c := range []struct{ ran, want int64 }{{0, 30}, {10, 20}, {29, 1}, {60, 1}} {
		s.rem[0], s.ranSecs[0] = 100-c.ran, c.ran
		if got := s.remOn(0, 0); got != c.want {
			t.Errorf("after %d s: remaining estimate %d, want %d", c.ran, got, c.want)
		}
	}
}

// recorder is a ClusterAware ranking that records what it was shown.
type recorder struct{ seen map[[2]int64]JobView }

func (r recorder) NeedsClusterState() bool { return true }
func (r recorder) Priority(j JobView) float64 {
	r.seen[[2]int64{j.Now, j.ID}] = j
	return float64(j.Arrival)
}

// At t=20 job 1 (2 GPUs) runs on the 4-GPU node, job 2 (4 GPUs) waits and
// job 3 (2 GPUs) arrives: f = 2, n = 1 (job 2; the arrival is not yet
// counted), e = 1 for job 3 and 0 for job 2.
func TestClusterAwareView(t *testing.T) {
	inst := &Instance{Name: "aware", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}}, Jobs: []Job{
		job(1, 0, 0, 100, 1, 2), job(2, 10, 0, 50, 1, 4), job(3, 20, 0, 30, 1, 2)}}
	rec := recorder{seen: map[[2]int64]JobView{}}
	mustSimWith(t, inst, NewListScheduler("aware", UserAllocator{}, rec, BestFit{}), Options{})
	for _, c := range []struct {
		id      int64
		free, n int
		fits    bool
	}{{2, 2, 1, false}, {3, 2, 1, true}} {
		v, ok := rec.seen[[2]int64{20, c.id}]
		if !ok {
			t.Fatalf("job %d not ranked at t=20", c.id)
		}
		if v.FreeGPUs != c.free || v.QueueLen != c.n || v.FitsNow != c.fits {
			t.Errorf("job %d at t=20: f=%d n=%d e=%v, want f=%d n=%d e=%v", c.id, v.FreeGPUs, v.QueueLen, v.FitsNow, c.free, c.n, c.fits)
		}
	}
	plain := map[[2]int64]JobView{}
	mustSimWith(t, inst, NewListScheduler("plain", UserAllocator{}, RankingFunc(func(j JobView) float64 {
		plain[[2]int64{j.Now, j.ID}] = j
		return 0
	}), BestFit{}), Options{})
	if v := plain[[2]int64{20, 3}]; v.FreeGPUs != 0 || v.FitsNow {
		t.Errorf("cluster state filled for a ranking that did not ask: %+v", v)
	}
}

package simcore

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

func mustSim(t *testing.T, inst *Instance, spec string, opts Options) Result {
	t.Helper()
	sched, err := ParseScheduler(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return mustSimWith(t, inst, sched, opts)
}

func mustSimWith(t *testing.T, inst *Instance, sched Scheduler, opts Options) Result {
	t.Helper()
	opts.RecordSegments = true
	res, err := Simulate(context.Background(), inst, sched, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckInvariants(inst, res); err != nil {
		t.Fatal(err)
	}
	return res
}

type want struct {
	id                  int64
	start, finish       int64
	cluster, preemption int
}

func checkJobs(t *testing.T, res Result, wants []want) {
	t.Helper()
	for _, w := range wants {
		var got *JobResult
		for i := range res.Jobs {
			if res.Jobs[i].ID == w.id {
				got = &res.Jobs[i]
			}
		}
		if got == nil {
			t.Fatalf("job %d missing", w.id)
		}
		if got.Start != w.start || got.Finish != w.finish || got.Cluster != w.cluster || got.Preemptions != w.preemption {
			t.Errorf("job %d: got start %d finish %d cluster %d preemptions %d; want %d %d %d %d",
				w.id, got.Start, got.Finish, got.Cluster, got.Preemptions, w.start, w.finish, w.cluster, w.preemption)
		}
	}
}

func job(id, arrival int64, cluster int, duration int64, workers, gpus int) Job {
	return Job{ID: id, Arrival: arrival, Cluster: cluster, Duration: duration, Workers: workers, GPUs: gpus, Priority: 1}
}

// (a) A small job waits behind a reserved larger one: no backfilling.
// One node of 4 GPUs. Job 1 (2 GPUs, 0–100) runs; at t=10 job 2 (4 GPUs,
// 50 s) is reserved from 100 and occupies its node from t (Eq. 13), so
// job 3 (2 GPUs, 10 s), though 2 GPUs are idle, starts only at 150.
// Conservative backfilling lets job 3 use the hole [10, 20); greedy too.
func reservationInstance() *Instance {
	return &Instance{Name: "reserve", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}},
		Jobs: []Job{job(1, 0, 0, 100, 1, 2), job(2, 10, 0, 50, 1, 4), job(3, 10, 0, 10, 1, 2)}}
}

func TestNoBackfillReservation(t *testing.T) {
	res := mustSim(t, reservationInstance(), "user+fifo+bestfit", Options{})
	checkJobs(t, res, []want{{1, 0, 100, 0, 0}, {2, 100, 150, 0, 0}, {3, 150, 160, 0, 0}})
	if q := res.Jobs[2].Queue; q != 140 {
		t.Errorf("job 3 queue %d, want 140", q)
	}
}

func TestConservativeBackfillUsesHole(t *testing.T) {
	res := mustSim(t, reservationInstance(), "user+fifo+bestfit", Options{Backfill: BackfillConservative})
	checkJobs(t, res, []want{{1, 0, 100, 0, 0}, {2, 100, 150, 0, 0}, {3, 10, 20, 0, 0}})
}

func TestGreedyStartsWhatFits(t *testing.T) {
	res := mustSim(t, reservationInstance(), "user+fifo+bestfit", Options{Backfill: BackfillGreedy})
	checkJobs(t, res, []want{{1, 0, 100, 0, 0}, {2, 100, 150, 0, 0}, {3, 10, 20, 0, 0}})
	// Greedy can starve: a stream of small jobs keeps the big one out.
	inst := &Instance{Name: "starve", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}},
		Jobs: []Job{job(1, 0, 0, 100, 1, 2), job(2, 10, 0, 50, 1, 4), job(3, 10, 0, 200, 1, 2)}}
	res = mustSim(t, inst, "user+fifo+bestfit", Options{Backfill: BackfillGreedy})
	checkJobs(t, res, []want{{3, 10, 210, 0, 0}, {2, 210, 260, 0, 0}})
}

// (b) MCT moves job B to cluster 1; C arrives there with a smaller SRSF
// key, so B (running off its user cluster, hence schedulable) is preempted
// at 10 and resumes at 30 with no loss of progress.
func TestMCTMovedJobPreemptedAndResumed(t *testing.T) {
	inst := &Instance{Name: "move", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}, {Nodes: 1, GPUsPerNode: 4}},
		Jobs: []Job{job(1, 0, 0, 100, 1, 4), job(2, 0, 0, 100, 1, 4), job(3, 10, 1, 20, 1, 4)}}
	res := mustSim(t, inst, "tiresias", Options{})
	checkJobs(t, res, []want{{1, 0, 100, 0, 0}, {2, 0, 120, 1, 1}, {3, 10, 30, 1, 0}})
	if q := res.Jobs[1].Queue; q != 20 {
		t.Errorf("job 2 queue %d, want 20", q)
	}
}

// (c) MCT picks the earliest finish; ties go to the user cluster, then to
// the lowest index.
func TestMCTChoiceAndTies(t *testing.T) {
	inst := &Instance{Name: "ties", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}, {Nodes: 1, GPUsPerNode: 4}, {Nodes: 1, GPUsPerNode: 4}},
		Jobs: []Job{
			job(1, 0, 2, 100, 1, 4), // all empty: tie → user cluster 2
			job(2, 0, 2, 50, 1, 4),  // 2 busy; 0 and 1 tie → lowest index 0
			job(3, 0, 2, 10, 1, 4),  // 0 and 2 busy (F 50, 100), 1 free → 1
			job(4, 5, 1, 10, 1, 4),  // clusters free at 50, 10, 100 → 1 (F 20)
		}}
	res := mustSim(t, inst, "mct+fifo+bestfit", Options{})
	checkJobs(t, res, []want{{1, 0, 100, 2, 0}, {2, 0, 50, 0, 0}, {3, 0, 10, 1, 0}, {4, 10, 20, 1, 0}})
}

// (d) Best fit packs workers onto the fullest node that still holds them;
// round robin spreads them from node 0.
func TestBestFitVersusRoundRobin(t *testing.T) {
	inst := &Instance{Name: "place", Clusters: []Cluster{{Nodes: 3, GPUsPerNode: 8}},
		Jobs: []Job{job(1, 0, 0, 100, 1, 4), job(2, 0, 0, 100, 2, 4)}}
	workersOf := func(res Result, j int) []int {
		for _, sg := range res.Segments {
			if sg.Job == j {
				return sg.Workers
			}
		}
		return nil
	}
	bf := mustSim(t, inst, "user+fifo+bestfit", Options{})
	rr := mustSim(t, inst, "user+fifo+roundrobin", Options{})
	if got := workersOf(bf, 1); got[0] != 2 || got[1] != 0 || got[2] != 0 {
		t.Errorf("best fit put job 2 on %v, want [2 0 0]", got)
	}
	if got := workersOf(rr, 1); got[0] != 1 || got[1] != 1 || got[2] != 0 {
		t.Errorf("round robin put job 2 on %v, want [1 1 0]", got)
	}
}

func TestPlacersDirect(t *testing.T) {
	cases := []struct {
		name  string
		p     Placer
		free  []int
		w, r  int
		place []int
	}{
		{"bestfit smallest", BestFit{}, []int{8, 4, 8}, 2, 2, []int{0, 2, 0}},
		{"bestfit spills", BestFit{}, []int{8, 4, 8}, 2, 3, []int{1, 2, 0}},
		{"bestfit skips negative", BestFit{}, []int{-4, 8, 2}, 2, 2, []int{0, 1, 1}},
		{"roundrobin spreads", RoundRobin{}, []int{8, 4, 8}, 2, 2, []int{1, 1, 0}},
		{"roundrobin cycles", RoundRobin{}, []int{8, 2, 8}, 2, 5, []int{2, 1, 2}},
		{"roundrobin skips small", RoundRobin{}, []int{1, 8, -3}, 2, 3, []int{0, 3, 0}},
	}
	for _, c := range cases {
		got := make([]int, len(c.free))
		c.p.Place(append([]int(nil), c.free...), c.w, c.r, got)
		for n := range got {
			if got[n] != c.place[n] {
				t.Errorf("%s: got %v want %v", c.name, got, c.place)
				break
			}
		}
	}
}

// (e) Simultaneous arrivals form one operation and are ranked together.
func TestSimultaneousArrivalsOneOperation(t *testing.T) {
	inst := &Instance{Name: "simul", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}},
		Jobs: []Job{job(1, 5, 0, 100, 1, 4), job(2, 5, 0, 30, 1, 4), job(3, 5, 0, 60, 1, 4)}}
	res := mustSim(t, inst, "user+srsf+bestfit", Options{})
	if res.Operations != 1 {
		t.Errorf("operations = %d, want 1", res.Operations)
	}
	checkJobs(t, res, []want{{2, 5, 35, 0, 0}, {3, 35, 95, 0, 0}, {1, 95, 195, 0, 0}})
}

// (f) With a ranking whose order changes with q, an operation at job 1's
// completion reorders jobs 2 and 3. f = rem − q²/50 (seconds).
// At t=20: f2 = 50 − 100/50 = 48, f3 = 30 → 3 first.
// At t=100: f2 = 50 − 8100/50 = −112, f3 = 30 − 6400/50 = −98 → 2 first.
func TestTriggerCompletionChangesOrder(t *testing.T) {
	inst := &Instance{Name: "trigger", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}},
		Jobs: []Job{job(1, 0, 0, 100, 1, 4), job(2, 10, 0, 50, 1, 4), job(3, 20, 0, 30, 1, 4)}}
	rank := RankingFunc(func(j JobView) float64 {
		q := float64(j.Queued)
		return float64(j.Remaining) - q*q/50
	})
	sched := NewListScheduler("q", UserAllocator{}, rank, BestFit{})
	arr := mustSimWith(t, inst, sched, Options{})
	checkJobs(t, arr, []want{{3, 100, 130, 0, 0}, {2, 130, 180, 0, 0}})
	cmp := mustSimWith(t, inst, sched, Options{Trigger: TriggerArrivalCompletion})
	checkJobs(t, cmp, []want{{2, 100, 150, 0, 0}, {3, 150, 180, 0, 0}})
	// Arrivals 0, 10, 20; completions 100 and 150 (the one at 180 leaves
	// nothing to schedule, so no operation runs there).
	if arr.Operations != 3 || cmp.Operations != 5 {
		t.Errorf("operations %d and %d, want 3 and 5", arr.Operations, cmp.Operations)
	}
}

// A job ranked behind a big reservation can still start now on nodes the
// reservation does not use (σ is per node, clamped at 0).
func TestPerNodeReservation(t *testing.T) {
	inst := &Instance{Name: "nodes", Clusters: []Cluster{{Nodes: 2, GPUsPerNode: 4}},
		Jobs: []Job{job(1, 0, 0, 100, 1, 4), job(2, 10, 0, 50, 1, 4), job(3, 10, 0, 10, 1, 2), job(4, 10, 0, 10, 1, 4)}}
	res := mustSim(t, inst, "user+fifo+bestfit", Options{})
	// t=10: σ = [0, 4] (job 1 holds node 0 until 100). Job 2 fits node 1
	// now: 10–60, σ = [0, 0]. Job 3 (2 GPUs): at 60 node 1 frees, σ(60) =
	// [0, 4] → S3 = 60 on node 1, F3 = 70, σ(t) = [0, −2]. Job 4 (4 GPUs):
	// σ(60) = [0, 2], σ(70) = [0, 4] → S4 = 70, before job 1 frees node 0.
	checkJobs(t, res, []want{{1, 0, 100, 0, 0}, {2, 10, 60, 0, 0}, {3, 60, 70, 0, 0}, {4, 70, 80, 0, 0}})
}

func TestMetricsHandComputed(t *testing.T) {
	res := mustSim(t, reservationInstance(), "user+fifo+bestfit", Options{})
	m := res.Metrics
	// queues 0, 90, 140 s, priority 1; span 0..160 s; work 2·100+4·50+2·10 = 420 GPU·s over 4·160.
	approx := func(name string, got, want float64) {
		if d := got - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	approx("cq_avg", m.CQAvg, (0+90+140)/3.0/3600)
	approx("cq_max", m.CQMax, 140.0/3600)
	approx("util", m.Util, 420.0/(4*160))
	approx("objective", m.Objective, m.CQAvg+m.CQMax+1-m.Util)
	approx("avg_jct", m.AvgJCT, (100+140+150)/3.0/3600)
	approx("makespan", m.Makespan, 160.0/3600)
	single := Objective{Kind: SingleCluster, Omega: 0.25}
	approx("eq16", single.Value(m), 0.25*m.AvgJCT+0.75*m.MaxQT)
}

func TestUnplaceableUserClusterIsError(t *testing.T) {
	inst := &Instance{Name: "bad", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 4}, {Nodes: 1, GPUsPerNode: 8}},
		Jobs: []Job{job(1, 0, 0, 10, 1, 8)}}
	sched, _ := ParseScheduler("user+fifo+bestfit", nil)
	if _, err := Simulate(context.Background(), inst, sched, Options{}); err == nil {
		t.Fatal("want an error for a job that does not fit its user cluster")
	}
	res := mustSim(t, inst, "liquid", Options{})
	if res.Jobs[0].Cluster != 1 {
		t.Errorf("MCT should move the job to cluster 1")
	}
}

func TestParseScheduler(t *testing.T) {
	for _, ok := range []string{"spark", "Tiresias", "user+fifo+bestfit", "mct+srsf+roundrobin", "mct+sjf+bestfit", "user+srtf+bestfit"} {
		if _, err := ParseScheduler(ok, nil); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "fast", "mct+fifo", "x+fifo+bestfit", "mct+y+bestfit", "mct+fifo+z"} {
		if _, err := ParseScheduler(bad, nil); err == nil {
			t.Errorf("%q: want error", bad)
		}
	}
	s, err := ParseScheduler("mct+formula+bestfit", map[string]Ranking{"formula": FIFO{}})
	if err != nil || s.(*ListScheduler).Ranking != (FIFO{}) {
		t.Errorf("extra ranking not used: %v", err)
	}
}

// bestFitReference is the worker-by-worker rule of SPEC §4.3, verbatim.
func bestFitReference(free []int, w, r int, place []int) {
	for ; r > 0; r-- {
		best := -1
		for n, f := range free {
			if f >= w && (best < 0 || f < free[best]) {
				best = n
			}
		}
		if best < 0 {
			return
		}
		free[best] -= w
		place[best]++
	}
}

func TestBestFitMatchesWorkerByWorkerRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := 1 + rng.IntN(12)
		g := []int{1, 2, 4, 8, 16, 64, 100}[rng.IntN(7)] // 100 takes the scan path
		free := make([]int, n)
		capacity := 0
		w := 1 + rng.IntN(g)
		for i := range free {
			free[i] = g - rng.IntN(2*g+1) // may be negative
			capacity += fits(free[i], w)
		}
		if capacity == 0 {
			continue
		}
		r := 1 + rng.IntN(capacity)
		a, b := append([]int(nil), free...), append([]int(nil), free...)
		pa, pb := make([]int, n), make([]int, n)
		BestFit{}.Place(a, w, r, pa)
		bestFitReference(b, w, r, pb)
		if !slices.Equal(pa, pb) || !slices.Equal(a, b) {
			t.Fatalf("free %v w %d r %d: got %v, reference %v", free, w, r, pa, pb)
		}
	}
}

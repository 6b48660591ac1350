package simcore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

func oneNode(gpus int, jobs ...simcore.Job) *simcore.Instance {
	return &simcore.Instance{Name: "hand", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: gpus}}, Jobs: jobs}
}

func job(id, arrival, dur int64, gpus int) simcore.Job {
	return simcore.Job{ID: id, Arrival: arrival, Duration: dur, Workers: 1, GPUs: gpus, Priority: 1}
}

func mustParse(t *testing.T, spec string) simcore.Scheduler {
	t.Helper()
	s, err := policies.Parse(spec, simcore.Params{}) // evo and mct-all are outside simcore
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type want struct {
	start, finish int64
	preempts      int
}

func checkJobs(t *testing.T, res simcore.Result, w map[int64]want) {
	t.Helper()
	for _, j := range res.Jobs {
		x, ok := w[j.ID]
		if !ok {
			continue
		}
		if j.Start != x.start || j.Finish != x.finish || j.Preemptions != x.preempts {
			t.Errorf("job %d: start %d finish %d preemptions %d, want %d %d %d", j.ID, j.Start, j.Finish, j.Preemptions, x.start, x.finish, x.preempts)
		}
	}
}

// One node of 4 GPUs, FIFO. A (3 GPUs) runs 0–100. B (2 GPUs, t=1) does
// not fit. Strict: C (1 GPU, t=2) waits behind B although one GPU is
// idle; at 100 B and C both start. Greedy: C starts at 2.
func TestStrictHeadOfLineBlocking(t *testing.T) {
	inst := oneNode(4, job(1, 0, 100, 3), job(2, 1, 10, 2), job(3, 2, 10, 1))
	sched := mustParse(t, "user+fifo+bestfit")
	for _, c := range []struct {
		bf   simcore.Backfill
		want map[int64]want
	}{
		{simcore.BackfillStrict, map[int64]want{1: {0, 100, 0}, 2: {100, 110, 0}, 3: {100, 110, 0}}},
		{simcore.BackfillGreedy, map[int64]want{1: {0, 100, 0}, 2: {100, 110, 0}, 3: {2, 12, 0}}},
	} {
		res, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{Backfill: c.bf, RecordSegments: true})
		if err != nil {
			t.Fatal(err)
		}
		checkJobs(t, res, c.want)
		if err := simcore.CheckInvariants(inst, res); err != nil {
			t.Fatal(err)
		}
	}
}

// SRTF on one 1-GPU node, by hand. A(d=100, t=0) runs. B(20, t=10)
// preempts A (rem 90): B 10–30, A resumes at 30. C(200, t=40) waits (A's
// rem 80 < 200). D(50, t=50) preempts A (rem 70): D 50–100, A 100–170,
// C 170–370. A is preempted twice.
//
// With a 5 s overhead: A's rem becomes 95 at 10; at 50 it is 75 > 50, so
// D preempts it again and its rem becomes 80: A 100–180, C 180–380.
func TestSRTFPreemptionCounts(t *testing.T) {
	inst := oneNode(1, job(1, 0, 100, 1), job(2, 10, 20, 1), job(3, 40, 200, 1), job(4, 50, 50, 1))
	sched := mustParse(t, "user+srtf+bestfit")
	for _, c := range []struct {
		overhead int64
		want     map[int64]want
	}{
		{0, map[int64]want{1: {0, 170, 2}, 2: {10, 30, 0}, 3: {170, 370, 0}, 4: {50, 100, 0}}},
		{5, map[int64]want{1: {0, 180, 2}, 2: {10, 30, 0}, 3: {180, 380, 0}, 4: {50, 100, 0}}},
	} {
		res, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{Backfill: simcore.BackfillPreemptive, PreemptOverhead: c.overhead, RecordSegments: true})
		if err != nil {
			t.Fatal(err)
		}
		checkJobs(t, res, c.want)
		if c.overhead == 0 {
			if err := simcore.CheckInvariants(inst, res); err != nil {
				t.Fatal(err)
			}
		}
		if err := checkPreemptiveInvariants(inst, res, c.overhead); err != nil {
			t.Fatal(err)
		}
	}
}

// Preemption uses idle GPUs first: on two nodes of 1 GPU, A (long) runs
// on node 0; B (shorter, ranked first) arrives and takes idle node 1
// rather than node 0 (best fit's tie-break), so A is neither preempted nor
// moved.
func TestPreemptiveUsesIdleGPUsFirst(t *testing.T) {
	inst := oneNode(1, job(1, 0, 100, 1), job(2, 10, 20, 1))
	inst.Clusters[0].Nodes = 2
	res, err := simcore.Simulate(context.Background(), inst, mustParse(t, "user+srtf+bestfit"), simcore.Options{Backfill: simcore.BackfillPreemptive, RecordSegments: true})
	if err != nil {
		t.Fatal(err)
	}
	checkJobs(t, res, map[int64]want{1: {0, 100, 0}, 2: {10, 30, 0}})
	if m := res.Jobs[0].Migrations; m != 0 {
		t.Errorf("job 1 moved %d times, want 0", m)
	}
	if len(res.Segments) != 2 || res.Segments[0].Job != 1 || res.Segments[0].Workers[1] != 1 {
		t.Errorf("segments %+v: want job 2 on node 1", res.Segments)
	}
}

// checkPreemptiveInvariants: every job ran its duration plus the overhead
// per preemption and move, and a job is preempted only at an instant at
// which another job starts on that cluster (preemption only makes room).
func checkPreemptiveInvariants(inst *simcore.Instance, res simcore.Result, overhead int64) error {
	starts := map[[2]int64]int{} // (cluster, time) → segments starting
	for _, sg := range res.Segments {
		starts[[2]int64{int64(sg.Cluster), sg.Start}]++
	}
	for _, sg := range res.Segments {
		j := res.Jobs[sg.Job]
		if sg.End == j.Finish {
			continue
		}
		if starts[[2]int64{int64(sg.Cluster), sg.End}] == 0 {
			return fmt.Errorf("job %d stopped at %d on cluster %d with no job starting there", j.ID, sg.End, sg.Cluster)
		}
	}
	for i, j := range res.Jobs {
		if want := inst.Jobs[i].Duration + overhead*int64(j.Preemptions+j.Migrations); j.Duration != want {
			return fmt.Errorf("job %d ran %d s, want %d", j.ID, j.Duration, want)
		}
	}
	return nil
}

// checkFIFOHeadOfLine: under strict FIFO with the user allocator, jobs of
// one cluster start in (arrival, id) order and never before a job ahead
// of them.
func checkFIFOHeadOfLine(inst *simcore.Instance, res simcore.Result) error {
	for a := range res.Jobs {
		for b := range res.Jobs {
			ja, jb := res.Jobs[a], res.Jobs[b]
			if ja.User != jb.User || a == b {
				continue
			}
			ahead := ja.Arrival < jb.Arrival || (ja.Arrival == jb.Arrival && ja.ID < jb.ID)
			if ahead && jb.Start < ja.Start {
				return fmt.Errorf("job %d started at %d before job %d (ahead of it) at %d", jb.ID, jb.Start, ja.ID, ja.Start)
			}
		}
	}
	return nil
}

func TestStrictInvariantsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	scheds := []simcore.Scheduler{mustParse(t, "user+fifo+bestfit"), mustParse(t, "user+sjf+roundrobin"), mustParse(t, "liquid"), mustParse(t, "tiresias"),
		simcore.NewListScheduler("d-q*q", simcore.MCT{}, dMinusQQ(), simcore.BestFit{})}
	for i := range 200 {
		inst := smallRandomInstance(rng, fmt.Sprintf("strict-%d", i))
		for k, sc := range scheds {
			res, err := simcore.Simulate(context.Background(), inst, sc, simcore.Options{Backfill: simcore.BackfillStrict, RecordSegments: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := simcore.CheckInvariants(inst, res); err != nil {
				t.Fatalf("%s %s: %v", inst.Name, sc.Name(), err)
			}
			if k == 0 {
				if err := checkFIFOHeadOfLine(inst, res); err != nil {
					t.Fatalf("%s: %v", inst.Name, err)
				}
			}
			for _, j := range res.Jobs {
				if j.Preemptions != 0 && sc.Name() == "user+fifo+bestfit" {
					t.Fatalf("%s: job %d preempted under strict FIFO", inst.Name, j.ID)
				}
			}
		}
	}
}

func TestPreemptiveInvariantsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	scheds := []simcore.Scheduler{mustParse(t, "user+srtf+bestfit"), mustParse(t, "mct+srtf+roundrobin"), mustParse(t, "tiresias"), mustParse(t, "liquid"),
		simcore.NewListScheduler("d-q*q", simcore.MCT{}, dMinusQQ(), simcore.BestFit{})}
	for i := range 200 {
		inst := smallRandomInstance(rng, fmt.Sprintf("preemptive-%d", i))
		for _, sc := range scheds {
			for _, o := range []int64{0, 7} {
				res, err := simcore.Simulate(context.Background(), inst, sc, simcore.Options{Backfill: simcore.BackfillPreemptive, PreemptOverhead: o, RecordSegments: true})
				if err != nil {
					t.Fatal(err)
				}
				if o == 0 {
					if err := simcore.CheckInvariants(inst, res); err != nil {
						t.Fatalf("%s %s: %v", inst.Name, sc.Name(), err)
					}
				}
				if err := checkPreemptiveInvariants(inst, res, o); err != nil {
					t.Fatalf("%s %s overhead %d: %v", inst.Name, sc.Name(), o, err)
				}
			}
		}
	}
}

func TestModeErrors(t *testing.T) {
	inst := oneNode(1, job(1, 0, 10, 1))
	evo := mustParse(t, "evo+srtf+bestfit")
	if _, err := simcore.Simulate(context.Background(), inst, evo, simcore.Options{Backfill: simcore.BackfillStrict}); err == nil {
		t.Error("evo with strict: want an error")
	}
	for _, bf := range []simcore.Backfill{simcore.BackfillStrict, simcore.BackfillPreemptive} {
		_, err := simcore.Simulate(context.Background(), inst, mustParse(t, "mct-all+srtf+bestfit"), simcore.Options{Backfill: bf})
		if err == nil || !strings.Contains(err.Error(), "mct-all") {
			t.Errorf("mct-all with backfill %d: want an error naming mct-all, got %v", bf, err)
		}
	}
	if _, err := simcore.Simulate(context.Background(), inst, mustParse(t, "liquid"), simcore.Options{PreemptOverhead: 5}); err == nil {
		t.Error("overhead without preemptive: want an error")
	}
	for _, name := range []string{"strict", "preemptive"} {
		if _, err := simcore.ParseBackfill(name); err != nil {
			t.Error(err)
		}
	}
}

// The new modes on heterogeneous instances (a duration per GPU type), half
// of them with duration estimates: invariants hold with work counted in
// fractions.
func TestModesHeterogeneousInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 6))
	types := []string{"k80", "p100", "v100"}
	for i := range 200 {
		inst := smallRandomInstance(rng, fmt.Sprintf("hetero-%d", i))
		for c := range inst.Clusters {
			inst.Clusters[c].GPUType = types[rng.IntN(len(types))]
		}
		for k := range inst.Jobs {
			inst.Jobs[k].TypeDurations = map[string]int64{}
			for _, ty := range types {
				inst.Jobs[k].TypeDurations[ty] = 1 + int64(rng.IntN(200))
			}
			if i%2 == 1 {
				inst.Jobs[k].Estimate = 1 + int64(rng.IntN(300))
			}
		}
		for _, spec := range []string{"mct+srtf+bestfit", "user+fifo+roundrobin", "tiresias"} {
			for _, bf := range []simcore.Backfill{simcore.BackfillStrict, simcore.BackfillPreemptive} {
				res, err := simcore.Simulate(context.Background(), inst, mustParse(t, spec), simcore.Options{Backfill: bf, RecordSegments: true})
				if err != nil {
					t.Fatal(err)
				}
				if err := simcore.CheckInvariants(inst, res); err != nil {
					t.Fatalf("%s %s %v: %v", inst.Name, spec, bf, err)
				}
			}
		}
	}
}

// TestBackfillStringRoundTrips: every mode's name reads back as the mode,
// so an error that prints a mode names it as sim.backfill spells it.
func TestBackfillStringRoundTrips(t *testing.T) {
	for b := simcore.BackfillNone; b <= simcore.BackfillPreemptive; b++ {
		got, err := simcore.ParseBackfill(b.String())
		if err != nil || got != b {
			t.Errorf("%d: %q reads back as %v, %v", int(b), b.String(), got, err)
		}
	}
}

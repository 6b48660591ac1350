package hydra

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/simcore"
)

func twoTypeJob(id, arrival, a, b, ddl int64) simcore.Job {
	return simcore.Job{ID: id, Arrival: arrival, Duration: a, Workers: 1, GPUs: 1, Priority: 1, Deadline: ddl,
		TypeDurations: map[string]int64{"A": a, "B": b}}
}

// TestFloatClockHandTraced: one A and one B GPU. Job 1 (B: 1 s) and then
// job 0 (A: 3 s) start at 0, job 1 is followed on B by job 2 (60 s); job 3
// (A: 5 s) arrives at 2 and waits for A. In floats job 0's ratio is
// 1 − 1/3 = 0.6666666666666667 at 1 s and 0.33333333333333337 at 2 s;
// the nearest completion is then 1.0000000000000002 s away, the clock
// reaches 3.0, and the ratio left, 0.33333333333333337 − 1/3, is
// 1.1e-16 > 0: job 0 is not finished, the next step is the 1 s minimum,
// its finish is recorded at 3 (+4e-16) and A is handed to job 3 at 4.
// The integer engine starts job 3 at 3.
func TestFloatClockHandTraced(t *testing.T) {
	in := simcore.Instance{Name: "float-hand",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1, GPUType: "A"}, {Nodes: 1, GPUsPerNode: 1, GPUType: "B"}},
		Jobs: []simcore.Job{twoTypeJob(0, 0, 3, 50, 0), twoTypeJob(1, 0, 40, 1, 0), twoTypeJob(2, 0, 41, 60, 0),
			twoTypeJob(3, 2, 5, 100, 8)}}
	res, err := FloatClockSJFFastest(context.Background(), &in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]struct {
		typ           string
		start, finish float64
	}{0: {"A", 0, 3}, 1: {"B", 0, 1}, 2: {"B", 1, 61}, 3: {"A", 4, 9}}
	for _, j := range res.Jobs {
		w := want[j.ID]
		if j.Type != w.typ || j.Start != w.start || math.Abs(j.Finish-w.finish) > 1e-9 {
			t.Errorf("job %d: %s [%v, %v), want %s [%v, %v)", j.ID, j.Type, j.Start, j.Finish, w.typ, w.start, w.finish)
		}
	}
	if res.Misses != 1 || math.Abs(res.TotalTardiness-1) > 1e-9 {
		t.Errorf("tardiness %v misses %d, want 1 s and 1 (job 3 due at 8 finishes at 9)", res.TotalTardiness, res.Misses)
	}
	ref, err := simcore.Simulate(context.Background(), &in, parse(t, "sjf-fastest", nil), simcore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ref.Jobs[3]; got.Start != 3 || got.Finish != 8 {
		t.Errorf("integer engine: job 3 [%d, %d), want [3, 8)", got.Start, got.Finish)
	}
}

// TestFloatClockMatchesEngineWhenExact: when every duration is a power of
// two (every ratio step exact in binary floating point) and all (job,
// type) durations differ (no ties to order), the float clock never meets
// a rounding remainder and must give exactly the integer engine's
// sjf-fastest schedule — the differential check of the float path.
func TestFloatClockMatchesEngineWhenExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	types := []string{"A", "B", "C"}
	coincide := 0
	for trial := range 300 {
		in := simcore.Instance{Name: fmt.Sprintf("pow2-%d", trial)}
		for _, ty := range types[:1+rng.IntN(3)] {
			in.Clusters = append(in.Clusters, simcore.Cluster{Nodes: 1 + rng.IntN(3), GPUsPerNode: 1, GPUType: ty})
		}
		nJobs := 2 + rng.IntN(8)
		pow := rng.Perm(nJobs * len(in.Clusters)) // distinct exponents
		var at int64
		for j := range nJobs {
			if rng.IntN(3) == 0 {
				at += int64(rng.IntN(40))
			}
			job := simcore.Job{ID: int64(j), Arrival: at, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: map[string]int64{}}
			for p, c := range in.Clusters {
				job.TypeDurations[c.GPUType] = 1 << pow[j*len(in.Clusters)+p]
			}
			job.Duration = job.TypeDurations["A"]
			if rng.IntN(3) == 0 {
				job.Deadline = at + 1 + rng.Int64N(64)
			}
			in.Jobs = append(in.Jobs, job)
		}
		got, err := FloatClockSJFFastest(context.Background(), &in)
		if err != nil {
			t.Fatal(err)
		}
		// Hydra handles a completion before the submissions of the same
		// second (it reschedules as soon as a step completes a job, and
		// only then takes the new jobs); evogp's operation sees both.
		// Instances where that order matters are left out here.
		if completionMeetsArrival(&in, got) {
			coincide++
			continue
		}
		ref, err := simcore.Simulate(context.Background(), &in, parse(t, "sjf-fastest", nil), simcore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var tardy float64
		for i, r := range ref.Jobs {
			g := got.Jobs[i]
			if g.Start != float64(r.Start) || g.Finish != float64(r.Finish) || g.Type != in.Clusters[r.Cluster].GPUType {
				t.Fatalf("%s job %d: float %s [%v, %v), engine %s [%d, %d)", in.Name, r.ID, g.Type, g.Start, g.Finish,
					in.Clusters[r.Cluster].GPUType, r.Start, r.Finish)
			}
			if r.Deadline > 0 {
				tardy += math.Max(0, float64(r.Finish-r.Deadline))
			}
		}
		if got.TotalTardiness != tardy {
			t.Fatalf("%s: tardiness %v, engine %v", in.Name, got.TotalTardiness, tardy)
		}
	}
	if coincide > 150 {
		t.Fatalf("%d of 300 instances left out: too few compared", coincide)
	}
}

// completionMeetsArrival reports whether a job's finish falls on another
// job's submission second.
func completionMeetsArrival(in *simcore.Instance, r FloatResult) bool {
	at := map[float64]bool{}
	for _, j := range in.Jobs {
		at[float64(j.Arrival)] = true
	}
	for _, j := range r.Jobs {
		if at[j.Finish] {
			return true
		}
	}
	return false
}

// TestFloatClockTiesToLaterRow: two jobs of equal duration on the only
// GPU: Hydra's list puts the later row first.
func TestFloatClockTiesToLaterRow(t *testing.T) {
	in := simcore.Instance{Name: "ties",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1, GPUType: "A"}},
		Jobs:     []simcore.Job{twoTypeJob(0, 0, 4, 0, 0), twoTypeJob(1, 0, 4, 0, 0)}}
	res, err := FloatClockSJFFastest(context.Background(), &in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[1].Start != 0 || res.Jobs[0].Start != 4 {
		t.Fatalf("starts %v, %v: want the later row (job 1) first", res.Jobs[0].Start, res.Jobs[1].Start)
	}
}

func TestFloatClockRefusesMultiGPUJobs(t *testing.T) {
	in := simcore.Instance{Name: "multi", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 2, GPUType: "A"}},
		Jobs: []simcore.Job{{ID: 0, Duration: 3, Workers: 1, GPUs: 2, Priority: 1}}}
	if _, err := FloatClockSJFFastest(context.Background(), &in); err == nil {
		t.Fatal("a 2-GPU job was accepted")
	}
}

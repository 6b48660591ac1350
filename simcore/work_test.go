package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// SPEC §12: progress is work. A job of 100 s on type A and 300 s on type B
// runs 40 s on A (40 % done), moves to B (⌈0.6·300⌉ = 180 s left), runs 30 s
// there (50 % done) and moves back to A (⌈0.5·100⌉ = 50 s left). With 7 s
// on A and 3 s on B, 2 s on A leave ⌈(5/7)·3⌉ = 3 s on B.
func TestWorkFractionAcrossTypes(t *testing.T) {
	inst := &Instance{Name: "types", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 1, GPUType: "A"}, {Nodes: 1, GPUsPerNode: 1, GPUType: "B"}},
		Jobs: []Job{
			{ID: 1, Duration: 100, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: map[string]int64{"A": 100, "B": 300}},
			{ID: 2, Duration: 7, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: map[string]int64{"A": 7, "B": 3}},
		}}
	s := newSim(context.Background(), inst, NewListScheduler("x", UserAllocator{}, FIFO{}, BestFit{}), Options{}, testHooks{})
	if s.remOn(0, 0) != 100 || s.remOn(0, 1) != 300 || s.speed(0, 1) != 100.0/300 || s.speed(1, 1) != 1 {
		t.Fatalf("fresh job: rem %d/%d speed %v", s.remOn(0, 0), s.remOn(0, 1), s.speed(0, 1))
	}
	steps := []struct {
		cluster int
		run     int64
		want    int64 // remaining right after the move
	}{{0, 40, 100}, {1, 30, 180}, {0, 0, 50}}
	for _, st := range steps {
		s.assign(0, st.cluster)
		s.runOn[0] = st.cluster
		if s.rem[0] != st.want {
			t.Fatalf("moved to cluster %d: %d s left, want %d", st.cluster, s.rem[0], st.want)
		}
		s.ran(0, st.run)
	}
	s.assign(1, 0)
	s.runOn[1] = 0
	s.ran(1, 2)
	s.assign(1, 1)
	if s.rem[1] != 3 {
		t.Fatalf("job 2 on B: %d s left, want 3", s.rem[1])
	}
}

// A job with no duration on a type cannot run there.
func TestTypeDurationZeroMeansInfeasible(t *testing.T) {
	j := Job{ID: 1, Duration: 10, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: map[string]int64{"A": 0}}
	if j.FitsOn(Cluster{Nodes: 1, GPUsPerNode: 1, GPUType: "A"}) || !j.FitsOn(Cluster{Nodes: 1, GPUsPerNode: 1, GPUType: "B"}) {
		t.Fatal("a zero entry must make the type infeasible and a missing one fall back to Duration")
	}
}

// Random heterogeneous instances: every list scheduler, every mode, jobs
// with a duration per GPU type; invariants hold with work in fractions.
// (List schedulers never move a job between clusters; EVO's tests cover
// moves.)
func TestHeterogeneousInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 67))
	types := []string{"k80", "p100", "v100"}
	moved := 0
	for i := range 200 {
		inst := randomInstance(rng, fmt.Sprintf("het-%d", i))
		for p := range inst.Clusters {
			inst.Clusters[p].GPUType = types[rng.IntN(3)]
		}
		for k := range inst.Jobs {
			j := &inst.Jobs[k]
			j.TypeDurations = map[string]int64{}
			for n, ty := range types {
				j.TypeDurations[ty] = max(1, j.Duration*int64(n+1)/int64(1+rng.IntN(3)))
			}
			if !j.FitsOn(inst.Clusters[j.Cluster]) {
				j.TypeDurations[inst.Clusters[j.Cluster].GPUType] = j.Duration
			}
		}
		for _, spec := range allSchedulerSpecs() {
			for _, opts := range goldenModes() {
				opts.RecordSegments, opts.CheckPlans = true, true
				res, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
				if err != nil {
					t.Fatalf("%s %s: %v", inst.Name, spec, err)
				}
				if err := CheckInvariants(inst, res); err != nil {
					t.Fatalf("%s %s %+v: %v", inst.Name, spec, opts, err)
				}
				for k, jr := range res.Jobs {
					if jr.Duration != inst.Jobs[k].Duration {
						moved++ // ran its duration on a type other than the default
						break
					}
				}
			}
		}
	}
	if moved == 0 {
		t.Fatal("no job ever ran a type-specific duration")
	}
}

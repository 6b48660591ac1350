package simcore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// oneWorkerInstance: 1–2 clusters of 3–8 nodes and 40–99 one-worker jobs
// of 1–4 GPUs, so that the placers have many nodes to choose from and a
// kept decision depends on which node each earlier job took.
func oneWorkerInstance(rng *rand.Rand, name string) *simcore.Instance {
	inst := &simcore.Instance{Name: name}
	for range 1 + rng.IntN(2) {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 3 + rng.IntN(6), GPUsPerNode: []int{4, 8}[rng.IntN(2)]})
	}
	t := int64(0)
	for id := range 40 + rng.IntN(60) {
		if rng.IntN(2) > 0 {
			t += int64(rng.IntN(30))
		}
		g := []int{1, 1, 1, 2, 3, 4}[rng.IntN(6)]
		inst.Jobs = append(inst.Jobs, simcore.Job{ID: int64(id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)),
			Duration: 1 + int64(rng.IntN(400)), Workers: 1, GPUs: g, Priority: 1})
	}
	return inst
}

// planInstances are the incremental planners' test instances: nRandom
// random ones, overloaded generated ones, two Philly-like ones and
// nOneWorker many-node one-worker ones.
func planInstances(t *testing.T, rng *rand.Rand, nRandom, nOneWorker int) []*simcore.Instance {
	t.Helper()
	insts := randomAndOverloaded(t, rng, nRandom, [2]int{3, 6}, 25, 2.5, 5)
	for i := range 2 {
		insts = append(insts, phillyLikeInstance(rng, fmt.Sprintf("philly-like-%d", i), 200))
	}
	for i := range nOneWorker {
		insts = append(insts, oneWorkerInstance(rng, fmt.Sprintf("one-worker-%d", i)))
	}
	return insts
}

// TestSpliceMatchesRebuild: rebuilding a plan while keeping the last
// plan's provably unchanged decisions (splice.go) gives exactly the
// results of replanning every cluster from scratch at every operation, on
// random, overloaded, Philly-like and many-node one-worker instances, for
// every ranking (FIFO, SRSF, SJF, SRTF, Lyra, d − q·q, a NaN-producing
// one) and both placers under MCT, the user
// allocator and EVO (which moves jobs between clusters), under both
// triggers, without backfilling (the only mode that splices; the other
// modes' plans are compared in planner_diff_test.go).
// It also requires the splice path to have kept and placed jobs, so it
// cannot pass by never running.
func TestSpliceMatchesRebuild(t *testing.T) {
	insts := planInstances(t, rand.New(rand.NewPCG(71, 5)), 60, 150)
	scheds := diffSchedulers(t)
	evoParams := evo.DefaultParams()
	evoParams.Population, evoParams.Generations = 6, 3
	for _, rank := range []simcore.Ranking{simcore.FIFO{}, dMinusQQ()} {
		e, err := evo.New(evoParams)
		if err != nil {
			t.Fatal(err)
		}
		scheds = append(scheds, simcore.NewListScheduler("evo", e, rank, simcore.BestFit{}))
	}
	var st simcore.PlanStats
	for _, inst := range insts {
		for _, sched := range scheds {
			if sched.Name() == "evo" && len(inst.Jobs) > 40 {
				continue // EVO's what-ifs are slow; the random instances suffice
			}
			for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
				opts := simcore.Options{Trigger: tr, RecordSegments: true}
				a, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, simcore.TestHooks{Stats: &st})
				if err != nil {
					t.Fatalf("%s %s %+v: %v", inst.Name, sched.Name(), opts, err)
				}
				assertMatchesReplanAll(t, inst, sched, opts, a)
			}
		}
	}
	if st.Kept == 0 || st.Placed == 0 {
		t.Fatalf("splice path kept %d and placed %d jobs; the test does not exercise it", st.Kept, st.Placed)
	}
	t.Logf("splice path: %d jobs kept, %d placed", st.Kept, st.Placed)
}

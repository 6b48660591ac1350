package simcore_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// TestListLevelsMatchCache: the cluster planners reading starts and
// placements off levels (planlevels.go) give exactly the results of the
// same simulations on the start cache (TestHooks.NoListLevels), job by
// job and segment by segment, on the instance families of
// TestLazyPlansMatchFullPlans and TestSpliceMatchesRebuild (random,
// overloaded, Philly-like, many-node one-worker), for every ranking and
// both placers under MCT, the user allocator and EVO, under both triggers,
// without backfilling and with greedy backfilling (whose MCT what-ifs read
// the levels). It requires the levels to have answered, so it cannot pass
// by never using them; planning with the levels off must not use them.
// Both the levels for every state (TestHooks.AlwaysListLevels) and the
// default (levels from a queue length on, the start cache below it, so a
// planner switches between the two) are compared.
func TestListLevelsMatchCache(t *testing.T) {
	insts := planInstances(t, rand.New(rand.NewPCG(2026, 28)), 40, 60)
	scheds := append(diffSchedulers(t),
		simcore.NewListScheduler("user+d-q*q", simcore.UserAllocator{}, dMinusQQ(), simcore.BestFit{}),
		simcore.NewListScheduler("mct+q*q-d", simcore.MCT{}, simcore.RankingFunc(func(j simcore.JobView) float64 {
			q := float64(j.Queued)
			return q*q - float64(j.Duration)
		}), simcore.RoundRobin{}))
	evoParams := evo.DefaultParams()
	evoParams.Population, evoParams.Generations = 6, 3
	e, err := evo.New(evoParams)
	if err != nil {
		t.Fatal(err)
	}
	scheds = append(scheds, simcore.NewListScheduler("evo", e, dMinusQQ(), simcore.BestFit{}))
	var on, off, mixed simcore.PlanStats
	for _, inst := range insts {
		for _, sched := range scheds {
			if sched.Name() == "evo" && len(inst.Jobs) > 40 {
				continue // EVO's what-ifs are slow; the small instances suffice
			}
			for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillGreedy} {
				for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
					opts := simcore.Options{Trigger: tr, Backfill: b, RecordSegments: true}
					want, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, simcore.TestHooks{NoListLevels: true, Stats: &off})
					if err != nil {
						t.Fatal(err)
					}
					for _, h := range []simcore.TestHooks{{AlwaysListLevels: true, Stats: &on}, {Stats: &mixed}} {
						got, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, h)
						if err != nil {
							t.Fatalf("%s %s %+v: %v", inst.Name, sched.Name(), opts, err)
						}
						if !reflect.DeepEqual(got, want) {
							for i := range got.Jobs {
								if !reflect.DeepEqual(got.Jobs[i], want.Jobs[i]) {
									t.Fatalf("%s %s %+v always=%v: job %d: levels %+v, start cache %+v", inst.Name, sched.Name(), opts, h.AlwaysListLevels, got.Jobs[i].ID, got.Jobs[i], want.Jobs[i])
								}
							}
							t.Fatalf("%s %s %+v always=%v: results differ", inst.Name, sched.Name(), opts, h.AlwaysListLevels)
						}
					}
				}
			}
		}
	}
	if on.Levels == 0 || mixed.Levels == 0 || off.Levels != 0 {
		t.Fatalf("levels answered %d times always on, %d from the queue length on and %d off", on.Levels, mixed.Levels, off.Levels)
	}
	t.Logf("levels answered %d starts always on, %d from the queue length on", on.Levels, mixed.Levels)
}

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
	var on, off simcore.PlanStats
	for _, inst := range insts {
		for _, sched := range scheds {
			if sched.Name() == "evo" && len(inst.Jobs) > 40 {
				continue // EVO's what-ifs are slow; the small instances suffice
			}
			for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillGreedy} {
				for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
					opts := simcore.Options{Trigger: tr, Backfill: b, RecordSegments: true}
					got, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, simcore.TestHooks{Stats: &on})
					if err != nil {
						t.Fatalf("%s %s %+v: %v", inst.Name, sched.Name(), opts, err)
					}
					want, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, simcore.TestHooks{NoListLevels: true, Stats: &off})
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						for i := range got.Jobs {
							if !reflect.DeepEqual(got.Jobs[i], want.Jobs[i]) {
								t.Fatalf("%s %s %+v: job %d: levels %+v, start cache %+v", inst.Name, sched.Name(), opts, got.Jobs[i].ID, got.Jobs[i], want.Jobs[i])
							}
						}
						t.Fatalf("%s %s %+v: results differ", inst.Name, sched.Name(), opts)
					}
				}
			}
		}
	}
	if on.Levels == 0 || off.Levels != 0 {
		t.Fatalf("levels answered %d times with them on and %d with them off", on.Levels, off.Levels)
	}
	t.Logf("levels answered %d starts", on.Levels)
}

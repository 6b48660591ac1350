package simcore_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// TestStartCacheLazyMatchesEager checks the start cache's lazy placement
// log (startcache.go) against the eager per-entry updates
// (TestHooks.EagerStartCache), with the default log bound and with a
// bound of 3 records (so the flush runs often), on the instance families
// of TestLazyPlansMatchFullPlans and TestSpliceMatchesRebuild, with and
// without the list levels (which take over the long queues' starts), no
// backfilling and greedy, both triggers.
func TestStartCacheLazyMatchesEager(t *testing.T) {
	insts := append(planInstances(t, rand.New(rand.NewPCG(19, 83)), 40, 60),
		planInstances(t, rand.New(rand.NewPCG(71, 5)), 60, 150)...)
	if testing.Short() {
		insts = insts[:40]
	}
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
	for _, inst := range insts {
		for _, sched := range scheds {
			if sched.Name() == "evo" && len(inst.Jobs) > 40 {
				continue // EVO's what-ifs are slow; the small instances suffice
			}
			for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillGreedy} {
				for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
					opts := simcore.Options{Trigger: tr, Backfill: b, RecordSegments: true}
					for _, noLevels := range []bool{false, true} {
						want, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, simcore.TestHooks{EagerStartCache: true, NoListLevels: noLevels})
						if err != nil {
							t.Fatal(err)
						}
						for _, flushAt := range []int{0, 3} {
							got, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, simcore.TestHooks{StartCacheFlushAt: flushAt, NoListLevels: noLevels})
							if err != nil {
								t.Fatalf("%s %s %+v: %v", inst.Name, sched.Name(), opts, err)
							}
							if !reflect.DeepEqual(got, want) {
								t.Fatalf("%s %s %+v levels off %v, flush at %d: lazy start cache differs from the eager one", inst.Name, sched.Name(), opts, noLevels, flushAt)
							}
						}
					}
				}
			}
		}
	}
}

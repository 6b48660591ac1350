package simcore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// End to end: EVO decoding with the level planner gives the same results
// as EVO decoding with the list scheduler's what-if planner in its
// replan-all reference mode (where the level planner is off), on random
// instances, every ranking, both placers, seeded and random
// initialisation, in the modes the level planner serves. (It lives here,
// not in simcore/evo, for the replan-all switch of export_test.go.)
func TestEVOLevelPlannerSameResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(241, 251))
	ranks := []simcore.Ranking{simcore.FIFO{}, simcore.SRSF{}, simcore.Lyra{}, simcore.SJF{}, simcore.SRTF{}}
	placers := []simcore.Placer{simcore.BestFit{}, simcore.RoundRobin{}}
	n := 60
	if testing.Short() {
		n = 15
	}
	for i := range n {
		inst := simcore.RandomInstance(rng, fmt.Sprintf("evo-level-%d", i))
		p := evo.DefaultParams()
		p.Population, p.Generations, p.Seed = 10, 12, uint64(i)
		p.Init = []string{"seeded", "random"}[i%2]
		e, err := evo.New(p)
		if err != nil {
			t.Fatal(err)
		}
		sched := simcore.NewListScheduler("evo", e, ranks[i%len(ranks)], placers[(i/2)%2])
		for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillGreedy} {
			for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
				opts := simcore.Options{Backfill: b, Trigger: tr, RecordOps: true}
				got, err := simcore.Simulate(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatal(err)
				}
				want, err := simcore.SimulateReplanning(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range []*simcore.Result{&got, &want} {
					for k := range r.Ops {
						r.Ops[k].WallMS = 0
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %v %v: results differ from the what-if planner's", inst.Name, b, tr)
				}
			}
		}
	}
}

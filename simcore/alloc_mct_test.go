package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// mctExhaustive is MCT as SPEC §5.1 states it: ask every feasible cluster,
// keep the earliest finish, ties → user cluster, then lowest index.
type mctExhaustive struct{}

func (mctExhaustive) Allocate(a *Allocation) error {
	for _, i := range a.Arrivals() {
		user := a.Job(i).Cluster
		best, bestF := -1, int64(never)
		for p := range a.Clusters() {
			if !a.Feasible(i, p) {
				continue
			}
			f, err := a.FinishOn(i, p)
			if err != nil {
				return err
			}
			if best < 0 || f < bestF || (f == bestF && p == user) {
				best, bestF = p, f
			}
		}
		a.Assign(i, best)
	}
	return nil
}

func TestMCTShortcutIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 31))
	for i := range 300 {
		inst := randomInstance(rng, fmt.Sprintf("mct-%d", i))
		for _, spec := range []string{"tiresias", "spark", "lyra", "qdep"} {
			fast := schedulerFor(t, spec).(*ListScheduler)
			slow := *fast
			slow.Allocator = mctExhaustive{}
			for _, opts := range []Options{{}, {Trigger: TriggerArrivalCompletion}, {Backfill: BackfillConservative}, {Backfill: BackfillGreedy}} {
				a, err := Simulate(context.Background(), inst, fast, opts)
				if err != nil {
					t.Fatal(err)
				}
				b, err := Simulate(context.Background(), inst, &slow, opts)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s %s %+v: shortcut MCT differs from exhaustive MCT", inst.Name, spec, opts)
				}
			}
		}
	}
}

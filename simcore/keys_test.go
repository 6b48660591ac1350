package simcore_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// Declaring a ranking time-invariant (keys computed once per job and
// cluster) must change nothing: the same ranking without the declaration
// gives identical results in every mode, on random and overloaded
// instances.
func TestTimeInvariantKeysExact(t *testing.T) {
	rankings := map[string]simcore.Ranking{"fifo": simcore.FIFO{}, "sjf": simcore.SJF{}, "lyra": simcore.Lyra{}, "srsf": simcore.SRSF{}, "srtf": simcore.SRTF{}}
	var modes []simcore.Options
	for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy, simcore.BackfillStrict, simcore.BackfillPreemptive} {
		for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
			modes = append(modes, simcore.Options{Trigger: tr, Backfill: b, RecordSegments: true})
		}
	}
	modes = append(modes, simcore.Options{Backfill: simcore.BackfillPreemptive, PreemptOverhead: 9, RecordSegments: true})
	insts := randomAndOverloaded(t, rand.New(rand.NewPCG(5, 8)), 25, [2]int{2, 4}, 15, 2, 2)
	for name, r := range rankings {
		if _, ok := r.(simcore.TimeInvariant); !ok {
			t.Fatalf("%s does not declare TimeInvariant", name)
		}
		plain := simcore.RankingFunc(r.Priority)
		for _, alloc := range []simcore.Allocator{simcore.MCT{}, simcore.UserAllocator{}} {
			a := simcore.NewListScheduler(name, alloc, r, simcore.BestFit{})
			b := simcore.NewListScheduler(name, alloc, plain, simcore.BestFit{})
			for _, inst := range insts {
				for _, opts := range modes {
					ra, err := simcore.Simulate(context.Background(), inst, a, opts)
					if err != nil {
						t.Fatal(err)
					}
					rb, err := simcore.Simulate(context.Background(), inst, b, opts)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(ra, rb) {
						t.Fatalf("%s %s %+v: time-invariant keys changed the result", inst.Name, name, opts)
					}
				}
			}
		}
	}
}

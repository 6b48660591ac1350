package rule_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// TestMBoundIsExact: in scope all with the routing tree m alone, asking
// m's what-if only of the clusters whose lower bound max(t, x) + rem can
// still win (mbound.go) gives job for job and segment for segment the
// schedule of asking every feasible cluster, on random instances (some
// overloaded: many jobs on few nodes) under every backfill mode scope all
// takes, for wait-first's ranking and SRSF, in hours and seconds. It
// requires skipped what-ifs, so it cannot pass by never skipping.
func TestMBoundIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 7))
	var st rule.MStats
	for i := range 60 {
		inst := randomInstance(rng, fmt.Sprintf("mb-%d", i))
		if i%3 == 0 { // overload: every job arrives in the first minutes
			for k := range inst.Jobs {
				inst.Jobs[k].Arrival /= 50
			}
		}
		for _, seconds := range []bool{false, true} {
			p, err := rule.ParseParams("m", "all", seconds)
			if err != nil {
				t.Fatal(err)
			}
			base, err := rule.New(p)
			if err != nil {
				t.Fatal(err)
			}
			ranking := []simcore.Ranking{simcore.WeightedWait{}, simcore.SRSF{}}[i%2]
			fast := simcore.NewListScheduler("bound", rule.WithMStats(base, &st), ranking, simcore.BestFit{})
			ref := simcore.NewListScheduler("bound", rule.WithoutMBound(base), ranking, simcore.BestFit{})
			for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
				opts := simcore.Options{Backfill: b}
				got, want := simulate(t, inst, fast, opts), simulate(t, inst, ref, opts)
				if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
					t.Fatalf("%s %v seconds=%v: the bound changes the schedule", inst.Name, b, seconds)
				}
			}
		}
	}
	if st.Skipped() == 0 {
		t.Fatalf("no what-if skipped (%d asked): the test does not exercise the bound", st.Asked())
	}
	t.Logf("what-ifs asked %d, skipped %d", st.Asked(), st.Skipped())
}

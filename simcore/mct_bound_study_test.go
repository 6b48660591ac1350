package simcore_test

import (
	"context"
	"os"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// TestMCTPrefixBoundStudy measures how much of MCT's what-if work an
// exact pruning by prefix lower bounds could skip on the overload
// benchmark instances (docs/DESIGN.md, "What bounds an overloaded
// simulation"). A study, not a check: it runs only with
// EVOGP_MCT_BOUND_STUDY=1 (5,000 jobs; =2 adds 20,000, several minutes).
//
//	EVOGP_MCT_BOUND_STUDY=1 go test ./simcore -run MCTPrefixBoundStudy -v
func TestMCTPrefixBoundStudy(t *testing.T) {
	env := os.Getenv("EVOGP_MCT_BOUND_STUDY")
	if env == "" {
		t.Skip("EVOGP_MCT_BOUND_STUDY not set")
	}
	sizes := []float64{10}
	if env == "2" {
		sizes = append(sizes, 40)
	}
	for _, jpn := range sizes {
		inst := overloadInstance(t, jpn)
		for _, c := range []struct {
			name string
			rank simcore.Ranking
		}{{"fifo", simcore.FIFO{}}, {"d-q*q", dMinusQQ()}} {
			st := simcore.BoundStudy{Every: 5}
			sched := simcore.NewListScheduler(c.name, simcore.NewBoundStudyMCT(&st), c.rank, simcore.BestFit{})
			if _, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{}); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d jobs, mct+%s: %d what-ifs sampled; placements per what-if (all clusters): exact %.1f, best-first on prefix bounds %.1f (%.1f %% fewer)",
				len(inst.Jobs), c.name, st.Samples, float64(st.Need)/float64(st.Samples), float64(st.BestFirst)/float64(st.Samples),
				100*(1-float64(st.BestFirst)/float64(st.Need)))
		}
	}
}

package hydra

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/evogp/evogp/simcore"
)

// TestPrintComparison prints total tardiness, deadline misses, average JCT,
// makespan and wall time of every scheduler on synthetic heavy batches
// (batchInstance). It is a tool, not a check: it runs only with
// HYDRA_TABLE=1.
func TestPrintComparison(t *testing.T) {
	if os.Getenv("HYDRA_TABLE") == "" {
		t.Skip("set HYDRA_TABLE=1 to print the comparison")
	}
	specs := []struct {
		name string
		p    *Params
	}{
		{"hydra", nil}, {"hydra-swap", nil}, {"edf", nil}, {"sjf-fastest", nil}, {"allox", nil}, {"chronus", nil},
	}
	for _, b := range []int{100, 200, 500, 2000} {
		specs = append(specs, struct {
			name string
			p    *Params
		}{fmt.Sprintf("hydra-b%d", b), &Params{Penalty: DefaultPenalty, Budget: b, Compare: CompareAbsolute}})
	}
	for _, n := range []int{100, 200, 400} {
		in := batchInstance(n)
		for _, sp := range specs {
			name := sp.name
			if sp.p != nil {
				name = "hydra"
			}
			start := time.Now()
			res, err := simcore.Simulate(context.Background(), &in, parse(t, name, sp.p), simcore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			m := res.Metrics
			fmt.Printf("jobs=%d %-12s tardiness %9.2f h  misses %3d  avg JCT %6.3f h  makespan %7.3f h  %6.2f s\n",
				n, sp.name, m.TotalTardiness, m.DeadlineMisses, m.AvgJCT, m.Makespan, time.Since(start).Seconds())
		}
	}
}

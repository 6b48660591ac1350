package learn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// TestTimeInvariantFormulaExact: a formula over d, u, g, r and w only
// declares simcore.TimeInvariant (its keys are computed once per waiting
// job and cluster) and any other does not; and simulating a declaring
// formula gives exactly the results of evaluating it at every operation
// (oneByOne hides the declaration), under MCT and the user allocator, on
// normal and overloaded generated instances.
func TestTimeInvariantFormulaExact(t *testing.T) {
	for _, c := range []struct {
		formula string
		want    bool
	}{
		{"g*d", true}, {"d", true}, {"u - w*r", true}, {"d % (g - g)", true}, {"3", true},
		{"q", false}, {"d - q*q", false}, {"a", false}, {"s + d", false}, {"f + d", false},
		{"n", false}, {"e*g", false}, {"v*d", false},
	} {
		if got := NewFormulaRanking(expr.MustParse(c.formula), false).TimeInvariant(); got != c.want {
			t.Errorf("%s: TimeInvariant = %v, want %v", c.formula, got, c.want)
		}
	}

	var insts []simcore.Instance
	for i, load := range []float64{0.8, 1.5} {
		s := datasets.PaperSettings()
		s.Clusters, s.Nodes, s.JobsPerNode = [2]int{2, 3}, [2]int{3, 6}, 12
		s.LoadMin, s.LoadMax = load, load
		gen, err := datasets.Generate(s, uint64(40+i), 3)
		if err != nil {
			t.Fatal(err)
		}
		insts = append(insts, gen...)
	}
	terms := waitInvariant()
	rng := rand.New(rand.NewPCG(3, 17))
	gs := expr.GenSettings{MinDepth: 1, MaxDepth: 4, Terminals: terms}
	opts := simcore.Options{RecordSegments: true}
	totalDeclared, totalEvery := 0, 0
	for trial := range 16 {
		f := NewFormulaRanking(expr.Simplify(expr.Grow(rng, 1+rng.IntN(4), gs)), false)
		if !f.TimeInvariant() {
			t.Fatalf("a formula over %s does not declare TimeInvariant", terms)
		}
		for _, alloc := range []simcore.Allocator{simcore.MCT{}, simcore.UserAllocator{}} {
			inst := &insts[trial%len(insts)]
			if _, user := alloc.(simcore.UserAllocator); user && !fitsOwnCluster(inst) {
				continue
			}
			name := fmt.Sprintf("trial %d %T", trial, alloc)
			a, err := simcore.Simulate(context.Background(), inst, simcore.NewListScheduler(name, alloc, f, simcore.BestFit{}), opts)
			if err != nil {
				t.Fatal(err)
			}
			b, err := simcore.Simulate(context.Background(), inst, simcore.NewListScheduler(name, alloc, oneByOne{f}, simcore.BestFit{}), opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s on %s: declaring TimeInvariant changed the result", name, inst.Name)
			}
			// The declaration is in effect: far fewer evaluations.
			declared, every := &counting{r: f, invariant: true}, &counting{r: f}
			for _, r := range []*counting{declared, every} {
				if _, err := simcore.Simulate(context.Background(), inst, simcore.NewListScheduler(name, alloc, r, simcore.BestFit{}), opts); err != nil {
					t.Fatal(err)
				}
			}
			if declared.calls >= every.calls {
				t.Fatalf("%s on %s: %d evaluations declared, %d at every operation", name, inst.Name, declared.calls, every.calls)
			}
			totalDeclared += declared.calls
			totalEvery += every.calls
		}
	}
	t.Logf("ranking evaluations: %d declared, %d at every operation", totalDeclared, totalEvery)
}

// counting counts a ranking's evaluations, declaring TimeInvariant or not.
type counting struct {
	r         simcore.Ranking
	invariant bool
	calls     int
}

func (c *counting) Priority(j simcore.JobView) float64 { c.calls++; return c.r.Priority(j) }

func (c *counting) TimeInvariant() bool { return c.invariant }

// fitsOwnCluster reports whether every job fits its user cluster (the
// user allocator's requirement).
func fitsOwnCluster(inst *simcore.Instance) bool {
	for _, j := range inst.Jobs {
		c := inst.Clusters[j.Cluster]
		if j.Workers > c.Nodes*(c.GPUsPerNode/max(1, j.PerWorker())) || j.PerWorker() > c.GPUsPerNode {
			return false
		}
	}
	return true
}

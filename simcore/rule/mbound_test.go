package rule_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// TestMBoundIsExact: asking m's what-if only of the clusters whose value at
// m's lower bound max(t, x) + rem can still win (mbound.go) gives job for
// job and segment for segment the schedule of asking every feasible
// cluster, on random instances (a third overloaded: every job in the first
// minutes) under every backfill mode m takes, in both scopes, for m alone
// and learned trees that are non-decreasing in m (and one that is not,
// which must run unchanged), with wait-first's ranking and SRSF, in hours
// and seconds. It requires skipped what-ifs, so it cannot pass by never
// skipping.
func TestMBoundIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 7))
	trees := []string{"m", "m + (m + (h + (h + m)))", "m + g * m + (h - g)", "x + 2 * m", "W + (d + g) + m * (n * W) + h * (2 * g)",
		"n + (n + g * m)", "m - o", "m + n % (g + 2 * m)"}
	var st rule.MStats
	for i := range 36 {
		inst := randomInstance(rng, fmt.Sprintf("mb-%d", i))
		if i%3 == 0 {
			for k := range inst.Jobs {
				inst.Jobs[k].Arrival /= 50
			}
		}
		routing := trees[i%len(trees)]
		for _, scope := range []string{"all", "arrivals"} {
			seconds := i%4 == 1
			p, err := rule.ParseParams(routing, scope, seconds)
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
					t.Fatalf("%s %q %s %v seconds=%v: the bound changes the schedule", inst.Name, routing, scope, b, seconds)
				}
			}
		}
	}
	if st.Skipped() == 0 {
		t.Fatalf("no what-if skipped (%d asked): the test does not exercise the bound", st.Asked())
	}
	t.Logf("what-ifs asked %d, skipped %d", st.Asked(), st.Skipped())
}

// TestNonDecreasingInM: the analysis on hand-picked trees, and on random
// trees: every tree it calls non-decreasing, evaluated at random
// non-negative terminal values (u of any sign) and two values m1 ≤ m2,
// gives R(m1) ≤ R(m2) in cmpKey's order (NaN last) whenever R(m1) is a
// number. It must call some random trees non-decreasing and refuse some.
func TestNonDecreasingInM(t *testing.T) {
	for tree, want := range map[string]bool{
		"m": true, "m + (m + (h + (h + m)))": true, "m + g * m + (h - g)": true, "x + 2 * m": true,
		"W + (d + g) + m * (n * W)": true, "m - o": true, "m % (g + 1)": true, "m * m": true,
		"0 - m": false, "m * u": false, "m * (0 - 1)": false, "n % m": false, "m % (h - 1)": false, "m - m": false,
		"W": true, // constant in m: non-decreasing, though Allocate bounds only trees that use m
	} {
		if got := rule.NonDecreasingInM(expr.Routing.MustParse(tree)); got != want {
			t.Errorf("%s: non-decreasing %v, want %v", tree, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 39))
	terms := expr.Routing.All()
	yes, no := 0, 0
	for range 4000 {
		tr := expr.Grow(rng, 2+rng.IntN(4), expr.GenSettings{Terminals: terms, Constants: true, ConstMin: -3, ConstMax: 3})
		if !tr.Uses(expr.OpRouteMCT) {
			continue
		}
		if !rule.NonDecreasingInM(tr) {
			no++
			continue
		}
		yes++
		prog := expr.Compile(tr)
		for range 20 {
			var v expr.Vars
			for op := range expr.Op(expr.Routing.Len()) {
				v[op] = []float64{0, 1, 2, 0.5, 7, 1e-3, 1e6}[rng.IntN(7)]
			}
			v[expr.OpU] = float64(rng.IntN(5) - 2)
			m1 := rng.Float64() * 10
			m2 := m1 + []float64{0, 1e-9, 0.5, 3, 1e9}[rng.IntN(5)]
			v[expr.OpRouteMCT] = m1
			r1 := prog.EvalVars(&v)
			v[expr.OpRouteMCT] = m2
			r2 := prog.EvalVars(&v)
			if !math.IsNaN(r1) && !math.IsNaN(r2) && r2 < r1 {
				t.Fatalf("%s called non-decreasing in m, but R(%v) = %v > R(%v) = %v at %v", tr, m1, r1, m2, r2, v)
			}
		}
	}
	if yes == 0 || no == 0 {
		t.Fatalf("%d random trees non-decreasing, %d not: the test cannot tell", yes, no)
	}
	t.Logf("random trees using m: %d non-decreasing, %d not", yes, no)
}

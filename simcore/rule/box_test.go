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

// TestSpanLowerBounds: the interval evaluation (box.go) of random routing
// trees over random boxes holds every value the tree takes at random
// points of the box (or the value is NaN, which ranks last): the ends are
// taken from a menu that includes 0, negative values, huge values that
// overflow when multiplied, and infinite upper ends (x and m), and the
// points include the ends themselves (finite ones) and 0.
func TestSpanLowerBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 11))
	menu := []float64{0, 0, 1, 2, 0.5, 3, 1e-3, 7, 1e200, -1, -2.5, -1e200, 1e308}
	inf := math.Inf(1)
	checked, bounded := 0, 0
	for range 3000 {
		tr := expr.Grow(rng, 1+rng.IntN(5), expr.GenSettings{Terminals: expr.Routing.All(), Constants: true, ConstMin: -3, ConstMax: 3})
		prog := expr.Compile(tr)
		var box [expr.MaxVariables]rule.Span
		for op := range expr.Op(expr.Routing.Len()) {
			a, b := menu[rng.IntN(len(menu))], menu[rng.IntN(len(menu))]
			if rng.IntN(4) == 0 {
				b = a // a point
			}
			lo, hi := min(a, b), max(a, b)
			if (op == expr.OpRouteFit || op == expr.OpRouteMCT) && rng.IntN(2) == 0 {
				hi = inf
			}
			box[op] = rule.Span{Lo: lo, Hi: hi}
		}
		s := rule.SpanBounds(tr, &box)
		if !math.IsInf(s.Lo, -1) {
			bounded++
		}
		for range 30 {
			var v expr.Vars
			for op := range expr.Op(expr.Routing.Len()) {
				b := box[op]
				hi := b.Hi
				if math.IsInf(hi, 1) {
					hi = b.Lo + []float64{0, 1, 1e6, 1e300}[rng.IntN(4)]
				}
				switch rng.IntN(4) {
				case 0:
					v[op] = b.Lo
				case 1:
					v[op] = hi
				case 2:
					if b.Lo <= 0 && 0 <= hi {
						v[op] = 0
					} else {
						v[op] = b.Lo
					}
				default:
					v[op] = b.Lo + rng.Float64()*(hi-b.Lo)
					v[op] = min(max(v[op], b.Lo), hi)
				}
			}
			got := prog.EvalVars(&v)
			checked++
			if !math.IsNaN(got) && (got < s.Lo || got > s.Hi) {
				t.Fatalf("%s over %v at %v = %v, outside [%v, %v]", tr, box, v, got, s.Lo, s.Hi)
			}
		}
	}
	if bounded == 0 {
		t.Fatal("no interval had a finite lower end: the test cannot tell")
	}
	t.Logf("%d evaluations checked; %d of 3000 intervals with a finite lower end", checked, bounded)
}

// TestBoxIsExact: ending a decision when the box of the remaining
// clusters cannot beat the current or user cluster (box.go) gives job for
// job and segment for segment the schedule of visiting every cluster, on
// random instances (a third overloaded, some heterogeneous), in hours and
// seconds, for learned trees, trees without m, trees not monotone in m and
// random trees, with and without the bound of m, under the backfill modes
// of scope all (the box is off under conservative backfilling's planner,
// which must run unchanged). It requires decisions ended by the box.
func TestBoxIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 12))
	trees := []string{"m", "h + (h + m) + m + m", "m + g * m + (h - g)", "m + m + x", "m + n % (m + m + g)",
		"(g + g) * h + (n * W * m + (W + (d + g))) + (d + g - (f - x))", "n + (n + g * m)", "x", "d - h + W", "0 - m", "o * 3 - m % f"}
	var st rule.MStats
	for i := range 40 {
		inst := randomInstance(rng, fmt.Sprintf("box-%d", i))
		if i%3 == 0 {
			for k := range inst.Jobs {
				inst.Jobs[k].Arrival /= 50
			}
		}
		if i%4 == 2 { // heterogeneous: cluster 1 is faster for some jobs
			inst.Clusters[1].GPUType = "fast"
			for k := range inst.Jobs {
				if rng.IntN(2) == 0 {
					inst.Jobs[k].TypeDurations = map[string]int64{"fast": max(1, inst.Jobs[k].Duration/2)}
				}
			}
		}
		routing := trees[i%len(trees)]
		if i >= 2*len(trees) {
			routing = expr.Grow(rng, 2+rng.IntN(3), expr.GenSettings{Terminals: expr.Routing.All(), Constants: true, ConstMin: -3, ConstMax: 3}).String()
		}
		p, err := rule.ParseParams(routing, "all", i%4 == 1)
		if err != nil {
			t.Fatal(err)
		}
		base, err := rule.New(p)
		if err != nil {
			t.Fatal(err)
		}
		ranking := []simcore.Ranking{simcore.WeightedWait{}, simcore.SRSF{}, simcore.FIFO{}}[i%3]
		fast := simcore.NewListScheduler("box", rule.WithMStats(base, &st), ranking, simcore.BestFit{})
		noBox := simcore.NewListScheduler("box", rule.WithoutBox(base), ranking, simcore.BestFit{})
		ref := simcore.NewListScheduler("box", rule.WithoutMBound(base), ranking, simcore.BestFit{})
		for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
			opts := simcore.Options{Backfill: b}
			got, want := simulate(t, inst, fast, opts), simulate(t, inst, ref, opts)
			if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
				t.Fatalf("%s %q %v: the box changes the schedule", inst.Name, routing, b)
			}
			if nb := simulate(t, inst, noBox, opts); !reflect.DeepEqual(nb.Jobs, want.Jobs) || !reflect.DeepEqual(nb.Segments, want.Segments) {
				t.Fatalf("%s %q %v: the bound of m alone changes the schedule", inst.Name, routing, b)
			}
		}
	}
	if st.Boxed() == 0 {
		t.Fatal("no decision ended by the box: the test does not exercise it")
	}
	t.Logf("decisions ended by the box: %d (what-ifs asked %d, skipped by the bound of m %d)", st.Boxed(), st.Asked(), st.Skipped())
}

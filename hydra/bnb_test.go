package hydra

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteForce is the minimum cost over every order of items.
func bruteForce(items []Item, offset, f int64) Cost {
	perm := slices.Clone(items)
	best := infCost
	var rec func(k int)
	rec = func(k int) {
		if k == len(perm) {
			if c := SequenceCost(perm, offset); c.Less(best, f) {
				best = c
			}
			return
		}
		for i := k; i < len(perm); i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
	return best
}

// randomItems draws n jobs with durations 1..20 and, with probability
// pDue, a due date in [−5, 1.2·Σd].
func randomItems(r *rand.Rand, n int, pDue float64) []Item {
	items := make([]Item, n)
	var total int64
	ids := r.Perm(n)
	for i := range items {
		items[i] = Item{ID: int64(ids[i] + 1), Dur: 1 + r.Int64N(20), Due: NoDue}
		total += items[i].Dur
	}
	for i := range items {
		if r.Float64() < pDue {
			items[i].Due = r.Int64N(total*6/5+6) - 5
		}
	}
	return items
}

func checkPermutation(t *testing.T, items, order []Item) {
	t.Helper()
	if len(order) != len(items) {
		t.Fatalf("order has %d items, want %d", len(order), len(items))
	}
	a, b := SPT(items), SPT(order)
	if !slices.Equal(a, b) {
		t.Fatalf("order %v is not a permutation of %v", order, items)
	}
}

func TestBranchAndBoundEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var s Solver
	// Disabled sets: none (every pruning on), each one alone, the lower
	// bound with the constraint pruning (which the lower bound subsumes),
	// and all of them.
	offs := []Pruning{0, PredictOptimum, LowerBound, RelativePosition, Constraint, LowerBound | Constraint, AllPrunings}
	nodes := make([]int, len(offs))
	cases := 0
	for trial := range 200 {
		n := 1 + trial%8
		items := randomItems(r, n, []float64{0.3, 0.6, 1}[trial%3])
		offset := r.Int64N(5)
		f := []int64{DefaultPenalty, 3}[trial%2]
		want := bruteForce(items, offset, f)
		if Late(SPT(items), offset) == 0 {
			continue // SPT is optimal; the branch and bound does not run
		}
		cases++
		for k, off := range offs {
			res := s.MinCost(items, offset, Options{Penalty: f, Budget: 1 << 30, Disabled: off})
			if res.Method != MethodBB {
				t.Fatalf("trial %d, disabled %04b: method %v, want bb", trial, off, res.Method)
			}
			if res.Cost != want && res.Cost.Compare(want, f) != 0 {
				t.Fatalf("trial %d, disabled %04b: cost %+v, brute force %+v (items %v, offset %d)", trial, off, res.Cost, want, items, offset)
			}
			checkPermutation(t, items, res.Order)
			if got := SequenceCost(res.Order, offset); got != res.Cost {
				t.Fatalf("trial %d: reported cost %+v, order costs %+v", trial, res.Cost, got)
			}
			nodes[k] += res.Stats.Expanded
		}
	}
	if cases < 100 {
		t.Fatalf("only %d cases needed the branch and bound", cases)
	}
	t.Logf("node expansions over %d cases: all prunings %d, −predict %d, −lb %d, −relpos %d, −constraint %d, −lb−constraint %d, none %d",
		cases, nodes[0], nodes[1], nodes[2], nodes[3], nodes[4], nodes[5], nodes[6])
	for k := 1; k <= 3; k++ {
		if nodes[k] <= nodes[0] {
			t.Errorf("disabling %04b: %d expansions, all prunings %d: the pruning saves nothing", offs[k], nodes[k], nodes[0])
		}
	}
	if nodes[4] < nodes[0] {
		t.Errorf("disabling the constraint pruning saved expansions: %d < %d", nodes[4], nodes[0])
	}
	if nodes[5] <= nodes[2] {
		t.Errorf("without the lower bound, the constraint pruning saves nothing: %d vs %d", nodes[5], nodes[2])
	}
	if nodes[6] <= nodes[5] {
		t.Errorf("no pruning: %d expansions, not more than %d", nodes[6], nodes[5])
	}
}

// TestPredictOptimumFiresExactlyWhenSPTMissesNoDeadline checks the root
// rule (SPT optimal) and, inside the search, that every branch closed by
// predict-optimum has a deadline-free SPT completion.
func TestPredictOptimumFiresExactlyWhenSPTMissesNoDeadline(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var s Solver
	fired, missed := 0, 0
	for trial := range 500 {
		items := randomItems(r, 1+trial%9, 0.5)
		offset := r.Int64N(4)
		res := s.MinCost(items, offset, Options{Budget: 1 << 20})
		sptLate := Late(SPT(items), offset)
		if (res.Method == MethodSPT) != (sptLate == 0) {
			t.Fatalf("trial %d: method %v with %d late jobs in SPT order", trial, res.Method, sptLate)
		}
		if sptLate == 0 {
			fired++
			if !slices.Equal(res.Order, SPT(items)) {
				t.Fatalf("trial %d: SPT optimal but order %v", trial, res.Order)
			}
		} else {
			missed++
		}
	}
	if fired < 50 || missed < 50 {
		t.Fatalf("unbalanced cases: %d SPT-optimal, %d not", fired, missed)
	}
	// A hand case: prefix [b] leaves {a, c} whose SPT completion a, c misses
	// nothing, so predict-optimum closes that branch.
	items := []Item{{ID: 1, Dur: 1, Due: NoDue}, {ID: 2, Dur: 2, Due: 2}, {ID: 3, Dur: 3, Due: NoDue}}
	res := s.MinCost(items, 0, Options{Budget: 100})
	// SPT: a 1, b 3 (late by 1), c 6 → late. Optimum: b, a, c = 2+3+6 = 11.
	if res.Method != MethodBB || res.Cost != (Cost{Completion: 11}) || res.Order[0].ID != 2 {
		t.Fatalf("hand case: %+v", res)
	}
	if res.Stats.PredictClosed == 0 {
		t.Fatalf("hand case: predict-optimum never closed a branch: %+v", res.Stats)
	}
}

func TestBudgetExhaustionFallsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var s Solver
	for trial := range 200 {
		items := randomItems(r, 8, 0.8)
		if Late(SPT(items), 0) == 0 {
			continue
		}
		full := s.MinCost(items, 0, Options{Budget: 1 << 30})
		for _, budget := range []int{1, 3} {
			res := s.MinCost(items, 0, Options{Budget: budget})
			if !res.Stats.Exhausted && res.Method != MethodBB {
				t.Fatalf("trial %d budget %d: %+v", trial, budget, res.Stats)
			}
			if res.Stats.Expanded > budget {
				t.Fatalf("trial %d: %d expansions over budget %d", trial, res.Stats.Expanded, budget)
			}
			checkPermutation(t, items, res.Order)
			swap := SequenceCost(SwapHeuristic(items, 0), 0)
			if res.Stats.Exhausted && res.Cost.Compare(swap, DefaultPenalty) > 0 {
				t.Fatalf("trial %d: fallback %+v worse than the swap heuristic %+v", trial, res.Cost, swap)
			}
			if res.Cost.Less(full.Cost, DefaultPenalty) {
				t.Fatalf("trial %d: budget %d beat the optimum", trial, budget)
			}
		}
		h := s.MinCost(items, 0, Options{Budget: 0})
		if h.Method != MethodSwap || !slices.Equal(h.Order, SwapHeuristic(items, 0)) {
			t.Fatalf("trial %d: budget 0 is not the heuristic alone: %+v", trial, h)
		}
	}
}

package hydra

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestCostCompareExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	val := func(c Cost, f int64) *big.Int {
		v := big.NewInt(f)
		v.Mul(v, big.NewInt(c.Tardiness))
		return v.Add(v, big.NewInt(c.Completion))
	}
	draw := func() int64 {
		switch r.IntN(3) {
		case 0:
			return r.Int64N(10) - 5
		case 1:
			return r.Int64N(1 << 40)
		}
		return r.Int64N(1<<61) - 1<<60
	}
	for range 20000 {
		a, b := Cost{draw(), draw()}, Cost{draw(), draw()}
		f := []int64{1, 7, DefaultPenalty, 1 << 40}[r.IntN(4)]
		want := val(a, f).Cmp(val(b, f))
		if got := a.Compare(b, f); got != want {
			t.Fatalf("%v vs %v (f=%d): Compare = %d, want %d", a, b, f, got, want)
		}
	}
}

func TestSequenceCostHand(t *testing.T) {
	items := []Item{{ID: 1, Dur: 3, Due: 2}, {ID: 2, Dur: 1, Due: NoDue}, {ID: 3, Dur: 2, Due: 10}}
	// offset 4: completions 7, 8, 10; tardiness 5, 0, 0.
	if got, want := SequenceCost(items, 4), (Cost{Tardiness: 5, Completion: 25}); got != want {
		t.Fatalf("SequenceCost = %+v, want %+v", got, want)
	}
	if got := Late(items, 4); got != 1 {
		t.Fatalf("Late = %d, want 1", got)
	}
	spt := SPT(items)
	if spt[0].ID != 2 || spt[1].ID != 3 || spt[2].ID != 1 {
		t.Fatalf("SPT = %v", spt)
	}
}

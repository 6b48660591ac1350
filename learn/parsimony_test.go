package learn

import (
	"testing"

	"github.com/evogp/evogp/expr"
)

// gp.parsimony: of members with equal fitness the smaller survives
// (whatever their hashes), fitness still decides first, and the scalar
// survival is unchanged when no fitness ties.
func TestParsimonySurvival(t *testing.T) {
	mk := func(f string, fit float64) scored {
		c := newScored(nil, expr.MustParse(f))
		c.fitness = fit
		return c
	}
	big, small, better := mk("d * g + q - q", 1), mk("d", 1), mk("g * d + u * u * u", 0.5)
	for _, order := range [][]scored{{big, small, better}, {small, better, big}, {better, big, small}} {
		got := survivors(MuPlusLambda{ByParsimony}, order, 2)
		if got[0].tree.String() != better.tree.String() || got[1].tree.String() != "d" {
			t.Fatalf("survivors %v, %v", got[0].tree, got[1].tree)
		}
	}
	// Distinct phenotypes: the smaller of a tied pair survives first.
	big.pheno, small.pheno, better.pheno = 1, 2, 3
	got := survivors(Dedup{Inner: MuPlusLambda{ByParsimony}, Order: ByParsimony}, []scored{big, small, better}, 3)
	if got[1].tree.String() != "d" || got[2].tree.Size() != big.tree.Size() {
		t.Fatalf("distinct survivors %v %v %v", got[0].tree, got[1].tree, got[2].tree)
	}
	noTie := []scored{mk("d", 3), mk("d * g", 1), mk("q", 2)}
	a := survivors(MuPlusLambda{ByParsimony}, noTie, 3)
	b := survivors(MuPlusLambda{}, noTie, 3)
	for i := range a {
		if a[i].hash != b[i].hash {
			t.Fatalf("without ties parsimony changed survival: %v vs %v", a[i].tree, b[i].tree)
		}
	}
}

package expr

import (
	"math"
	"math/rand/v2"
)

// eq17 is the paper's Eq. 17 priority function (as stated in issue 3).
const eq17 = "((q+g)%q - u) * (d % (q + (d+g-u)%(q*q)))"

// sameFloat is bit equality, except that every NaN equals every NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// trickyConsts are constants that break careless identities: signed zeros,
// the multiplicative unit, overflow-prone magnitudes and a subnormal.
var trickyConsts = []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, 3, -2.5, 0.1, 1e308, -1e308, 1e-308, 5e-324}

// trickyInputs are the values random input tuples are drawn from, plus
// random reals; drawing four from a small pool makes equal inputs common.
var trickyInputs = []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, 3, 1e308, -1e308, 1e-300, math.Inf(1), math.Inf(-1), math.NaN()}

func randInput(rng *rand.Rand) float64 {
	if rng.IntN(4) == 0 {
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
	}
	return trickyInputs[rng.IntN(len(trickyInputs))]
}

func randInputs(rng *rand.Rand) [4]float64 {
	return [4]float64{randInput(rng), randInput(rng), randInput(rng), randInput(rng)}
}

// randTree builds a random tree of depth ≤ depth whose constants come from
// trickyConsts, and which often repeats a subtree on both sides of an
// operator (so x − x, x % x and x + x shapes occur).
func randTree(rng *rand.Rand, depth int) *Tree {
	if depth == 1 || rng.IntN(3) == 0 {
		if rng.IntN(3) == 0 {
			return Constant(trickyConsts[rng.IntN(len(trickyConsts))])
		}
		return Terminal(Op(rng.IntN(4)))
	}
	op := OpAdd + Op(rng.IntN(4))
	l := randTree(rng, depth-1)
	if rng.IntN(5) == 0 {
		return Binary(op, l, l)
	}
	return Binary(op, l, randTree(rng, depth-1))
}

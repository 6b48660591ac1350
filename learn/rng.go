package learn

import (
	mrand "math/rand"
	"math/rand/v2"
	"slices"

	"github.com/evogp/evogp/datasets"
)

// Every random draw of a run comes from one master PCG stream (math/rand/v2)
// seeded from the config seed. expr's generators and variation operators use
// that stream directly. eaopt's selector wants a math/rand *Rand, so each
// generation draws one 63-bit seed from the master stream and builds a fresh
// math/rand source from it; nothing of that source outlives its generation,
// so the master stream's state (a PCG implements encoding.BinaryMarshaler)
// is all a checkpoint needs to continue the exact same sequence.

// masterRand is the master stream of a run with the given config seed. The
// two PCG words are derived with datasets.SplitSeed under names no dataset
// split uses, so the GP stream is independent of the generated data.
func masterRand(seed uint64) (*rand.Rand, *rand.PCG) {
	pcg := rand.NewPCG(datasets.SplitSeed(seed, "learn/gp"), datasets.SplitSeed(seed, "learn/gp/inc"))
	return rand.New(pcg), pcg
}

// generationRand draws the seed of one generation's math/rand source (used
// by eaopt's tournament selector) from the master stream.
func generationRand(master *rand.Rand) *mrand.Rand {
	return mrand.New(mrand.NewSource(int64(master.Uint64() >> 1)))
}

// sampleSubset draws α distinct indices of 0..n−1 (partial Fisher–Yates on
// the master stream) and returns them in ascending order, so that fitness
// sums are always taken in instance order.
func sampleSubset(master *rand.Rand, n, alpha int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i := 0; i < alpha; i++ {
		j := i + master.IntN(n-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	out := append([]int(nil), idx[:alpha]...)
	slices.Sort(out)
	return out
}

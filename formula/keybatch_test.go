package formula

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// randomView draws a job view with small and large values, zeros included
// (protected division) and every cluster-state field set.
func randomView(rng *rand.Rand) simcore.JobView {
	pick := func(xs ...int64) int64 { return xs[rng.IntN(len(xs))] }
	v := simcore.JobView{
		ID: rng.Int64N(1000), Arrival: rng.Int64N(1e6), Now: 1e6 + rng.Int64N(1e6),
		Remaining: pick(0, 1, 59, 3600, rng.Int64N(1e7)), Queued: pick(0, 1, 7200, rng.Int64N(1e7)),
		GPUs: int(pick(1, 2, 8, 64)), Workers: int(pick(1, 2, 8)), PerWorker: int(pick(1, 4, 8)),
		Priority: int(pick(1, 2, 3)), Cluster: rng.IntN(4), FreeGPUs: int(pick(0, 3, 40)),
		QueueLen: int(pick(0, 1, 500)), FitsNow: rng.IntN(2) == 0, Speed: []float64{1, 0.5, 0.37}[rng.IntN(3)],
	}
	if rng.IntN(2) == 0 {
		v.Deadline = v.Now + rng.Int64N(1e6) - 5e5
	}
	v.Duration = v.Remaining + rng.Int64N(1e5)
	return v
}

// KeyBatch must return, bit for bit, what Priority returns for every view,
// across chunk boundaries, for the paper terminals and every other
// terminal, in hours and in seconds.
func TestKeyBatchMatchesPriority(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	for _, set := range []string{"d,q,u,g", "d,q,u,g,a,r,w,f,n,e,s,v"} {
		terms, err := expr.ParseTerminals(strings.Split(set, ","))
		if err != nil {
			t.Fatal(err)
		}
		gs := expr.GenSettings{MinDepth: 1, MaxDepth: 6, Terminals: terms, Constants: true}
		for trial := range 200 {
			tree := expr.Grow(rng, 1+rng.IntN(6), gs)
			f := NewRanking(tree, trial%2 == 0)
			eval := f.KeyBatch()
			for _, n := range []int{0, 1, keyChunk - 1, keyChunk, keyChunk + 1, 2*keyChunk + 17} {
				views := make([]simcore.JobView, n)
				for i := range views {
					views[i] = randomView(rng)
				}
				keys := make([]float64, n)
				eval(views, keys)
				for i, v := range views {
					if want := f.Priority(v); math.Float64bits(keys[i]) != math.Float64bits(want) {
						t.Fatalf("%s (seconds %v), view %d of %d: batch key %v, Priority %v", tree, f.Seconds, i, n, keys[i], want)
					}
				}
			}
		}
	}
}

package learn

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// BenchmarkSurrogateScreen measures one generation's surrogate work at the
// paper's scale: characterising a pool of 2 × 512 bred trees on 64
// sampled decisions of the paper config's training instances, and
// ranking them by the kNN model over a full archive (4 × 512 entries).
//
//	go test ./learn -run '^$' -bench SurrogateScreen -count 6
func BenchmarkSurrogateScreen(b *testing.B) {
	cfg, err := configs.Load("paper")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Data.Train = 2 // the decision sample stops early anyway
	train, _, err := LoadData(cfg)
	if err != nil {
		b.Fatal(err)
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ev, err := newEvaluator(train, train, opts, false, 1, "mct", "bestfit", EVOParams(cfg))
	if err != nil {
		b.Fatal(err)
	}
	ds, err := sampleDecisions(context.Background(), train, opts, ev.candidate, simcore.SRSF{}, cfg.GP.DedupSample)
	if err != nil {
		b.Fatal(err)
	}
	n := cfg.GP.Population
	s := newSurrogate(ds, configs.DefaultSurrogateK, configs.DefaultSurrogatePool, n, false, false)
	rng := rand.New(rand.NewPCG(1, 2))
	gs := expr.GenSettings{MinDepth: 2, MaxDepth: 6}
	mk := func(k int) []scored {
		var out []scored
		for _, t := range expr.RampedHalfAndHalf(rng, k, gs) {
			out = append(out, newScored(nil, t))
		}
		return out
	}
	for i, c := range mk(s.capacity) {
		e := s.entry(c, nil)
		e.value = float64(i % 17)
		s.archive = append(s.archive, e)
	}
	pool, parents := mk(s.pool*n), mk(n)
	b.ResetTimer()
	for b.Loop() {
		if got := s.screen(pool, parents, n, nil); len(got) != n {
			b.Fatalf("kept %d", len(got))
		}
	}
}

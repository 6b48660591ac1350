package simcore

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortRankedMatchesRankCmp: sorting on packed entries gives exactly
// the order of the three-way ranking comparison, on random keys with
// ties, NaNs, ±0, ±Inf and subnormals, from random and already sorted
// starts.
func TestSortRankedMatchesRankCmp(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 5e-324, -5e-324,
		math.MaxFloat64, -math.MaxFloat64, 1, -1, 2.5, -2.5}
	var buf []rankEntry
	for trial := range 2000 {
		n := 1 + rng.IntN(60)
		inst := &Instance{Name: "sort"}
		for id := range n {
			inst.Jobs = append(inst.Jobs, Job{ID: int64(rng.IntN(1000) + id*1000), Arrival: int64(rng.IntN(5))})
		}
		s := &sim{inst: inst, key: make([]float64, n), pos: make([]int32, n)}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			ja, jb := &inst.Jobs[a], &inst.Jobs[b]
			if ja.Arrival != jb.Arrival {
				return cmpInt64(ja.Arrival, jb.Arrival)
			}
			return cmpInt64(ja.ID, jb.ID)
		})
		for i, j := range order {
			s.pos[j] = int32(i)
		}
		for j := range n {
			if rng.IntN(3) == 0 {
				s.key[j] = special[rng.IntN(len(special))]
			} else {
				s.key[j] = float64(rng.IntN(7)) - 3 + rng.Float64()*float64(rng.IntN(2))
			}
		}
		jobs := rng.Perm(n)
		if trial%4 == 0 {
			slices.SortFunc(jobs, s.rankCmp)
		}
		want := slices.Clone(jobs)
		slices.SortFunc(want, s.rankCmp)
		s.sortRanked(jobs, &buf)
		if !slices.Equal(jobs, want) {
			t.Fatalf("trial %d: sortRanked %v, rankCmp %v (keys %v)", trial, jobs, want, s.key)
		}
	}
}

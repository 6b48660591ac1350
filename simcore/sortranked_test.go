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

// TestRankToMatchesSort: ranking a queue incrementally (rankorder.go)
// gives, after any sequence of requests, a prefix equal to the full sort's
// and a permutation of the queue, and rankOf counts exactly the jobs that
// rank before a new one.
func TestRankToMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 21))
	for trial := range 500 {
		n := rng.IntN(400)
		total := n + 1
		inst := &Instance{Name: "rank"}
		for id := range total {
			inst.Jobs = append(inst.Jobs, Job{ID: int64(id), Arrival: int64(rng.IntN(50))})
		}
		s := &sim{inst: inst, key: make([]float64, total), pos: make([]int32, total)}
		order := make([]int, total)
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			if c := cmpInt64(inst.Jobs[a].Arrival, inst.Jobs[b].Arrival); c != 0 {
				return c
			}
			return cmpInt64(inst.Jobs[a].ID, inst.Jobs[b].ID)
		})
		for i, j := range order {
			s.pos[j] = int32(i)
		}
		for j := range total {
			s.key[j] = float64(rng.IntN(20))
			if rng.IntN(10) == 0 {
				s.key[j] = math.NaN()
			}
		}
		p := &planner{s: s, lz: lazyPlan{lazy: true}}
		p.jobs = rng.Perm(n) // job n is the one asked about by rankOf
		if trial%5 == 0 {
			slices.SortFunc(p.jobs, s.rankCmp)
		}
		want := slices.Clone(p.jobs)
		slices.SortFunc(want, s.rankCmp)
		p.rankInit()
		k := 0
		for k < n {
			k += 1 + rng.IntN(1+rng.IntN(n))
			p.rankTo(k)
			m := min(k, n)
			if p.sel.sortedN < m || !slices.Equal(p.jobs[:m], want[:m]) {
				t.Fatalf("trial %d: after rankTo(%d) prefix %v, want %v", trial, k, p.jobs[:m], want[:m])
			}
			got := slices.Clone(p.jobs)
			slices.Sort(got)
			for i, j := range got {
				if j != i {
					t.Fatalf("trial %d: jobs %v are not a permutation", trial, p.jobs)
				}
			}
			for i := range p.jobs {
				if int(p.sel.ranked[i].j) != p.jobs[i] {
					t.Fatalf("trial %d: ranked[%d] is job %d, jobs[%d] is %d", trial, i, p.sel.ranked[i].j, i, p.jobs[i])
				}
			}
			wantK := 0
			for _, o := range want {
				if s.rankLess(o, n) {
					wantK++
				}
			}
			if got := p.rankOf(n); got != wantK {
				t.Fatalf("trial %d: rankOf = %d, want %d", trial, got, wantK)
			}
			if rng.IntN(4) == 0 {
				break
			}
		}
	}
}

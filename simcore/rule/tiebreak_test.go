package rule

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// SPEC §16's order of clusters: smaller R, NaN after every number, then
// the current cluster, then the user cluster, then the lower index.
func TestBetterOrder(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		v    float64
		p    int
		w    float64
		q    int
		cur  int
		user int
		want bool
	}{
		{1, 3, 2, 0, -1, 0, true},                    // smaller value wins over everything
		{2, 0, 1, 3, 0, 0, false},                    // larger value loses even on the current cluster
		{5, 1, nan, 0, -1, 0, true},                  // a number beats NaN
		{nan, 0, 5, 1, 0, 0, false},                  // NaN loses
		{nan, 2, nan, 1, 2, 0, true},                 // NaN ties: the current cluster
		{1, 2, 1, 0, 2, 0, true},                     // tie: current (2) before user (0)
		{1, 0, 1, 2, 2, 0, false},                    // the same, the other way round
		{1, 1, 1, 0, -1, 1, true},                    // tie, no current: the user cluster
		{1, 2, 1, 1, -1, 0, false},                   // tie, neither: the lower index
		{1, 1, 1, 2, -1, 0, true},                    // tie, neither: the lower index
		{0, 1, math.Copysign(0, -1), 0, -1, 1, true}, // +0 and −0 tie: user
	} {
		if got := better(c.v, c.p, c.w, c.q, c.cur, c.user); got != c.want {
			t.Errorf("better(%v on %d, %v on %d; current %d, user %d) = %v", c.v, c.p, c.w, c.q, c.cur, c.user, got)
		}
	}
}

// x is the earliest candidate time at which the job's shape fits beside
// the Jn jobs: node 0 has 1 GPU free until 50 and 4 after, node 1 has 2
// free until 80 and 4 after (2 × 4 GPUs; Jn jobs of 3 GPUs on node 0 until
// 50 and of 2 on node 1 until 80).
func TestFitTime(t *testing.T) {
	b := book{}
	b.reset(1, 2, 4, true)
	copy(b.jnUse, []int{3, 2})
	b.releases = []release{{at: 80, node: 1, gpus: 2}, {at: 50, node: 0, gpus: 3}} // sorted lazily
	for _, c := range []struct {
		w, r int
		want int64
	}{
		{1, 3, 0},  // 1 + 2 single GPUs now
		{1, 4, 50}, // 4 + 2 from 50
		{2, 1, 0},  // node 1 holds one pair now
		{2, 3, 50}, // 2 pairs on node 0 + 1 on node 1 from 50
		{2, 4, 80}, // all free at 80
		{4, 1, 50}, // node 0 whole from 50
		{4, 2, 80},
	} {
		if got := b.fitTime(0, c.w, c.r); got != c.want {
			t.Errorf("%d workers × %d GPUs: fit at %d, want %d", c.r, c.w, got, c.want)
		}
	}
}

// fullFitTime is x as it was computed before fitTime was lazy: the full
// capacity steps (releases sorted by time, those at t folded into the
// first step), binary-searched for the first step holding r workers.
func fullFitTime(nodes, gpn int, jnUse []int, rels []release, now int64, w, r int) int64 {
	rels = slices.Clone(rels)
	slices.SortFunc(rels, func(x, y release) int { return cmp.Compare(x.at, y.at) })
	b := book{nodes: nodes, gpn: gpn, jnUse: jnUse, releases: rels}
	steps := b.buildSteps(now, w, nil)
	for _, s := range steps {
		if s.cap >= r {
			return s.at
		}
	}
	return math.MaxInt64
}

// The lazy fitTime (capacity at t first, the full steps only when needed,
// sorted once per book, buffers reused across operations) gives the full
// steps' answer for every w and r, on random books reset across
// "operations", including Jn jobs finishing at t (left out of the book, as
// Allocate does, where the full steps counted them freed at t).
func TestFitTimeLazyIsFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	var b book
	checks := 0
	for op := 1; op <= 400; op++ {
		nodes, gpn := 1+rng.IntN(12), []int{1, 2, 4, 8}[rng.IntN(4)]
		now := int64(rng.IntN(1000))
		b.reset(op, nodes, gpn, true)
		fullUse := make([]int, nodes)
		var fullRels []release
		for range rng.IntN(3 * nodes) {
			n, g := rng.IntN(nodes), 1+rng.IntN(gpn)
			if fullUse[n]+g > gpn {
				continue
			}
			at := now + int64(rng.IntN(4))*int64(rng.IntN(300)) // often at t
			fullUse[n] += g
			fullRels = append(fullRels, release{at: at, node: n, gpus: g})
			if at > now {
				b.jnUse[n] += g
				b.releases = append(b.releases, release{at: at, node: n, gpus: g})
			}
		}
		for range 1 + rng.IntN(20) {
			w, r := 1+rng.IntN(gpn+1), 1+rng.IntN(2*nodes+1)
			got, want := b.fitTime(now, w, r), fullFitTime(nodes, gpn, fullUse, fullRels, now, w, r)
			if got != want {
				t.Fatalf("op %d (%d×%d, t=%d): %d×%d GPUs fit at %d, full steps %d", op, nodes, gpn, now, r, w, got, want)
			}
			checks++
		}
	}
	if checks < 2000 {
		t.Fatalf("only %d queries", checks)
	}
}

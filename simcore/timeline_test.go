package simcore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refReservations is the plain model the timelines are checked against: a
// flat list of reservations, the earliest start found by trying every
// candidate τ ∈ {now} ∪ {F > now} and rescanning every reservation for the
// peak use of each node over [τ, τ+d) (the peak is reached at τ or at a
// reservation's start inside the window).
type refReservations struct {
	nodes, g int
	res      []reservation
}

func (rf *refReservations) peak(n int32, from, to int64) int {
	at := func(x int64) int {
		use := 0
		for _, rv := range rf.res {
			if rv.node == n && rv.from <= x && x < rv.to {
				use += int(rv.gpus)
			}
		}
		return use
	}
	p := at(from)
	for _, rv := range rf.res {
		if rv.node == n && rv.from > from && rv.from < to {
			p = max(p, at(rv.from))
		}
	}
	return p
}

func (rf *refReservations) earliest(now int64, w, r int, d int64, free []int) int64 {
	times := []int64{now}
	for _, rv := range rf.res {
		if rv.to > now {
			times = append(times, rv.to)
		}
	}
	slices.Sort(times)
	for _, tau := range slices.Compact(times) {
		count := 0
		for n := range rf.nodes {
			free[n] = rf.g - rf.peak(int32(n), tau, tau+d)
			count += fits(free[n], w)
		}
		if count >= r {
			return tau
		}
	}
	return never
}

// TestTimelinesMatchRescan drives timelines the way the planner does — at
// operations of increasing time: reset, load the fixed jobs (which start
// and finish between operations, so loadFixed sees the same, changed and
// unchanged fixed states), keep a copy of the fixed state, add ordered
// reservations, answer queries on the full state and on a copy of the
// fixed state plus a prefix — and requires every earliest start and every
// node's free capacity to equal the rescan of a flat reservation list.
func TestTimelinesMatchRescan(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 97))
		nodes := 1 + rng.IntN(12)
		g := []int{1, 2, 4, 8}[rng.IntN(4)]
		type fixedJob struct {
			node int32
			gpus int32
			end  int64
		}
		var fixed []fixedJob
		var tl, fixedTL, prefixTL timelines
		now := int64(0)
		free := make([]int, nodes)
		want := make([]int, nodes)
		check := func(op int, what string, tl *timelines, ref *refReservations) {
			t.Helper()
			w := 1 << rng.IntN(4)
			if w > g {
				w = g
			}
			r := 1 + rng.IntN(nodes*g/w)
			d := int64(1 + rng.IntN(40))
			clear(free)
			clear(want)
			got := tl.earliest(now, g, w, r, d, free)
			exp := ref.earliest(now, w, r, d, want)
			if got != exp || (exp != never && !slices.Equal(free, want)) {
				t.Fatalf("seed %d op %d %s: w=%d r=%d d=%d now=%d: earliest %d free %v, rescan %d free %v\nreservations %v",
					seed, op, what, w, r, d, now, got, free, exp, want, ref.res)
			}
		}
		for op := range 40 {
			now += int64(rng.IntN(6)) // sometimes the same time, like arrivals at one instant
			// Fixed jobs finish (a job due exactly now may still be listed:
			// its release at now cancels its use), start.
			fixed = slices.DeleteFunc(fixed, func(f fixedJob) bool { return f.end < now || rng.IntN(8) == 0 })
			for range rng.IntN(3) {
				n := int32(rng.IntN(nodes))
				used := 0
				for _, f := range fixed {
					if f.node == n {
						used += int(f.gpus)
					}
				}
				if used < g {
					fixed = append(fixed, fixedJob{node: n, gpus: int32(1 + rng.IntN(g-used)), end: now + 1 + int64(rng.IntN(30))})
				}
			}
			// The planner's inputs: use per node, releases sorted by time.
			use := make([]int, nodes)
			var rels []release
			ref := &refReservations{nodes: nodes, g: g}
			for _, f := range fixed {
				use[f.node] += int(f.gpus)
				rels = append(rels, release{at: f.end, node: f.node, gpus: f.gpus})
				ref.res = append(ref.res, reservation{from: now, to: f.end, node: f.node, gpus: f.gpus})
			}
			slices.SortStableFunc(rels, func(a, b release) int { return cmpInt64(a.at, b.at) })
			tl.reset(nodes)
			switch rng.IntN(4) {
			case 0: // a reset timelines is empty, to queries and to copies
				check(op, "reset", &tl, &refReservations{nodes: nodes, g: g})
			case 1:
				prefixTL.copyFrom(&tl)
				check(op, "copy of reset", &prefixTL, &refReservations{nodes: nodes, g: g})
			}
			tl.loadFixed(now, use, rels)
			fixedTL.copyFrom(&tl)
			fixedRef := &refReservations{nodes: nodes, g: g, res: slices.Clone(ref.res)}
			// Ordered jobs: each takes its earliest start on the full
			// state (as placeJob does) and is reserved there.
			for k := range rng.IntN(6) {
				check(op, fmt.Sprintf("job %d", k), &tl, ref)
				w := 1 << rng.IntN(4)
				if w > g {
					w = g
				}
				r := 1 + rng.IntN(nodes*g/w)
				d := int64(1 + rng.IntN(40))
				start := tl.earliest(now, g, w, r, d, free)
				if start == never {
					continue
				}
				place := make([]int, nodes)
				BestFit{}.Place(free, w, r, place)
				for n, c := range place {
					if c > 0 {
						gpus := int32(c * w)
						tl.add(n, start, start+d, gpus)
						ref.res = append(ref.res, reservation{from: start, to: start + d, node: int32(n), gpus: gpus})
					}
				}
			}
			check(op, "full", &tl, ref)
			// A what-if on the fixed state plus a prefix of one reservation.
			prefixTL.copyFrom(&fixedTL)
			pref := &refReservations{nodes: nodes, g: g, res: slices.Clone(fixedRef.res)}
			if rng.IntN(2) == 0 {
				n := rng.IntN(nodes)
				from := now + int64(rng.IntN(10))
				to := from + int64(1+rng.IntN(20))
				gpus := int32(1 + rng.IntN(g))
				prefixTL.add(n, from, to, gpus)
				pref.res = append(pref.res, reservation{from: from, to: to, node: int32(n), gpus: gpus})
			}
			check(op, "prefix", &prefixTL, pref)
			check(op, "fixed", &fixedTL, fixedRef)
			if rng.IntN(3) == 0 {
				// Change the copy: the next copy of the same fixed state
				// must not be skipped.
				fixedTL.add(rng.IntN(nodes), now, now+int64(1+rng.IntN(20)), int32(1+rng.IntN(g)))
			}
		}
	}
}

// A fixed state loaded at t0 is not reused at an earlier time, where its
// first breakpoints (at t0) would leave [t, t0) empty.
func TestTimelinesLoadFixedEarlier(t *testing.T) {
	use := []int{4, 0}
	rels := []release{{at: 20, node: 0, gpus: 4}}
	var tl timelines
	tl.reset(2)
	tl.loadFixed(10, use, rels)
	tl.reset(2)
	tl.loadFixed(5, use, rels)
	free := make([]int, 2)
	// 2 workers of 8 GPUs on two 8-GPU nodes: node 0 is busy until 20.
	if got := tl.earliest(5, 8, 8, 2, 3, free); got != 20 {
		t.Fatalf("earliest = %d, want 20 (node 0 holds 4 GPUs over [5, 20))", got)
	}
}

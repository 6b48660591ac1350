package simcore

import (
	"slices"
	"sort"
)

// step is a breakpoint of a node's reservation timeline: from at until the
// next breakpoint, use GPUs of the node are reserved.
type step struct {
	at  int64
	use int32
}

// timelines hold a cluster's reservations under conservative backfilling
// (SPEC §4.3) as one sorted step function per node, u_n(τ) = Σ gpus of
// the reservations [S, F) on n with S ≤ τ < F, plus the sorted distinct
// finish times F of all reservations (the candidate starts).
//
// Query (earliest): the first τ ∈ {t} ∪ {F > t} at which
// Σ_n ⌊(G − M_n(τ))/w⌋ ≥ r, with M_n(τ) = max_{x ∈ [τ, τ+d)} u_n(x). A
// segment [s_i, s_{i+1}) of u_n meets the window [τ, τ+d) iff
// s_i < τ + d and s_{i+1} > τ, so as τ grows segments enter and leave the
// window in index order, and M_n(τ) is a sliding-window maximum: one
// monotone deque per node, advanced only at the event times s_i − d + 1
// (enter) and s_{i+1} (leave) of the node's segments. One query costs
// O((N + E) log N + C) for E events before the answer and C candidates
// checked, instead of
// the O(C · N · R) rescan of every reservation per node and candidate.
// The value is identical: M_n(τ) is exactly the peak reserved use over the
// window, which the rescan computes at τ and at reservation starts.
type timelines struct {
	node [][]step
	ends []int64

	// Query scratch.
	heap  []int32   // nodes by next change
	next  []int64   // per node: the τ at which its maximum may change next
	dq    [][]int32 // per node: deque of step indices, decreasing use
	head  []int     // per node: first live element of dq
	enter []int     // per node: next step index to enter the window
	peak  []int     // per node: M_n at the current τ
}

func (tl *timelines) reset(nodes int) {
	if len(tl.node) != nodes {
		tl.node = make([][]step, nodes)
		tl.dq = make([][]int32, nodes)
		tl.head = make([]int, nodes)
		tl.enter = make([]int, nodes)
		tl.peak = make([]int, nodes)
	}
	for n := range tl.node {
		tl.node[n] = tl.node[n][:0]
	}
	tl.ends = tl.ends[:0]
}

// copyFrom makes tl hold the reservations of o.
func (tl *timelines) copyFrom(o *timelines) {
	tl.reset(len(o.node))
	for n := range o.node {
		tl.node[n] = append(tl.node[n], o.node[n]...)
	}
	tl.ends = append(tl.ends, o.ends...)
}

// ensure returns the index of node n's breakpoint at x, inserting one that
// continues the previous use if there is none.
func (tl *timelines) ensure(n int, x int64) int {
	st := tl.node[n]
	k := sort.Search(len(st), func(i int) bool { return st[i].at >= x })
	if k < len(st) && st[k].at == x {
		return k
	}
	var use int32
	if k > 0 {
		use = st[k-1].use
	}
	tl.node[n] = slices.Insert(st, k, step{at: x, use: use})
	return k
}

// add reserves gpus GPUs of node n over [from, to) and records to as a
// candidate start.
func (tl *timelines) add(n int, from, to int64, gpus int32) {
	tl.addEnd(to)
	if to <= from || gpus == 0 {
		return
	}
	i := tl.ensure(n, from)
	j := tl.ensure(n, to)
	st := tl.node[n]
	for k := i; k < j; k++ {
		st[k].use += gpus
	}
}

func (tl *timelines) addEnd(t int64) {
	k, found := slices.BinarySearch(tl.ends, t)
	if !found {
		tl.ends = slices.Insert(tl.ends, k, t)
	}
}

// advance brings node n's window [τ, τ+d) up to τ and returns M_n(τ).
func (tl *timelines) advance(n int, tau, d int64) int {
	st := tl.node[n]
	dq := tl.dq[n]
	h := tl.head[n]
	e := tl.enter[n]
	for ; e < len(st) && st[e].at < tau+d; e++ {
		if st[e].use <= 0 {
			continue
		}
		for len(dq) > h && st[dq[len(dq)-1]].use <= st[e].use {
			dq = dq[:len(dq)-1]
		}
		dq = append(dq, int32(e))
	}
	for h < len(dq) && st[dq[h]+1].at <= tau {
		h++
	}
	tl.dq[n], tl.head[n], tl.enter[n] = dq, h, e
	if h < len(dq) {
		return int(st[dq[h]].use)
	}
	return 0
}

// earliest is the conservative-backfilling start of a job of r workers of
// w GPUs running d seconds, on nodes of g GPUs, at an operation at now
// (see the type comment). It leaves G − M_n(τ) per node in free and
// returns never if no candidate fits.
//
// Nodes wait in a min-heap keyed by the next τ at which their window
// maximum can change: the next segment's entry s_e − d + 1 or the leave
// time of the deque's front (a segment behind the front is dominated, so
// its leaving changes nothing until it is the front). Events after the
// answer are never generated.
func (tl *timelines) earliest(now int64, g, w, r int, d int64, free []int) int64 {
	tl.heap = tl.heap[:0]
	if len(tl.next) != len(tl.node) {
		tl.next = make([]int64, len(tl.node))
	}
	count := 0
	for n := range tl.node {
		tl.dq[n] = tl.dq[n][:0]
		tl.head[n], tl.enter[n] = 0, 0
		tl.peak[n] = tl.advance(n, now, d)
		count += fits(g-tl.peak[n], w)
		if tl.next[n] = tl.nextChange(n, d); tl.next[n] != never {
			tl.push(int32(n))
		}
	}
	try := func(tau int64) bool {
		for len(tl.heap) > 0 && tl.next[tl.heap[0]] <= tau {
			n := int(tl.heap[0])
			old := tl.peak[n]
			tl.peak[n] = tl.advance(n, tau, d)
			count += fits(g-tl.peak[n], w) - fits(g-old, w)
			if tl.next[n] = tl.nextChange(n, d); tl.next[n] != never {
				tl.fix0()
			} else {
				tl.pop0()
			}
		}
		return count >= r
	}
	found := int64(never)
	if count >= r {
		found = now
	} else {
		k, _ := slices.BinarySearch(tl.ends, now+1)
		for _, tau := range tl.ends[k:] {
			if try(tau) {
				found = tau
				break
			}
		}
	}
	if found != never {
		for n := range free {
			free[n] = g - tl.peak[n]
		}
	}
	return found
}

// nextChange is the first τ after the last advance of node n at which its
// window maximum can change (never if none).
func (tl *timelines) nextChange(n int, d int64) int64 {
	st := tl.node[n]
	next := int64(never)
	if e := tl.enter[n]; e < len(st) {
		next = st[e].at - d + 1
	}
	if h := tl.head[n]; h < len(tl.dq[n]) {
		next = min(next, st[tl.dq[n][h]+1].at)
	}
	return next
}

func (tl *timelines) less(a, b int32) bool {
	if tl.next[a] != tl.next[b] {
		return tl.next[a] < tl.next[b]
	}
	return a < b
}

func (tl *timelines) push(n int32) {
	h := append(tl.heap, n)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !tl.less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	tl.heap = h
}

// fix0 restores the heap after the key of its root grew.
func (tl *timelines) fix0() {
	h := tl.heap
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && tl.less(h[r], h[l]) {
			m = r
		}
		if !tl.less(h[m], h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (tl *timelines) pop0() {
	last := len(tl.heap) - 1
	tl.heap[0] = tl.heap[last]
	tl.heap = tl.heap[:last]
	tl.fix0()
}

// loadFixed replaces the content of tl with the fixed jobs of a cluster
// at now: node n holds use[n] GPUs from now, and each release (sorted by
// time) gives back its GPUs at its time. Equivalent to adding a
// reservation [now, F) per fixed job and slot, in O(N + R).
func (tl *timelines) loadFixed(now int64, use []int, rels []release) {
	tl.reset(len(use))
	for n, u := range use {
		if u > 0 {
			tl.node[n] = append(tl.node[n], step{at: now, use: int32(u)})
		}
	}
	for _, rl := range rels {
		st := tl.node[rl.node]
		last := &st[len(st)-1]
		if last.at == rl.at {
			last.use -= rl.gpus
		} else {
			tl.node[rl.node] = append(st, step{at: rl.at, use: last.use - rl.gpus})
		}
		if k := len(tl.ends); k == 0 || tl.ends[k-1] != rl.at {
			tl.ends = append(tl.ends, rl.at)
		}
	}
}

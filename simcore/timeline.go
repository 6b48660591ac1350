package simcore

import (
	"slices"
)

// step is a breakpoint of a node's reservation timeline: from at until the
// next breakpoint, use GPUs of the node are reserved.
type step struct {
	at  int64
	use int32
}

// span locates node n's breakpoints in the shared arena: buf[off : off+n],
// with room for cap of them before the node must move.
type span struct {
	off, n, cap int32
	// falling: the uses of the breakpoints never increase (a node holding
	// fixed jobs only), so the peak over a window is the use of the
	// first segment meeting it.
	falling bool
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
// O(N + S_t + (E + C) log N) for S_t breakpoints inside [t, t+d), E
// events before the answer and C candidates checked, instead of the
// O(C · N · R) rescan of every reservation per node and candidate; when the
// job fits at t (the common case below saturation) no event is generated.
// The value is identical: M_n(τ) is exactly the peak reserved use over the
// window, which the rescan computes at τ and at reservation starts.
//
// Storage: the steps of all nodes live in one arena (buf), node n in the
// region its span gives; a node whose region is full moves to the end of
// the arena with twice the room (the old region becomes garbage, at most
// the live size). So a copy of the whole timelines (the planner keeps the
// fixed jobs' state and a prefix state) is two memmoves and a reset is
// lazy, instead of one slice per node. The planner rebuilds every plan at
// every operation under conservative backfilling, so the fixed jobs' state
// is kept and reused while they do not change (loadFixed), copies of it
// that would change nothing are skipped (copyFrom), and a node holding
// fixed jobs only gives its peak at t in O(1) (span.falling).
type timelines struct {
	span  []span
	buf   []step
	ends  []int64
	dirty bool // something was loaded or added since the last reset

	// The last fixed state loaded (loadFixed's inputs and result), and
	// whether the content above is still exactly that result.
	base     *fixedBase
	pristine bool
	// copyOf: the content is an unmodified copy of version ver of base,
	// made by copyFrom from a pristine timelines (nil if not).
	copyOf    *fixedBase
	copyOfVer uint64
	held      bool // logically empty (reset), content not cleared yet

	// Query scratch. The deque of node n lives in dq[off : off+cap] of
	// its span (it never holds more than the node's breakpoints).
	dq    []int32
	heap  []int32 // nodes by next change
	next  []int64 // per node: the τ at which its maximum may change next
	head  []int32 // per node: first live element of its deque
	tail  []int32 // per node: one past the last element of its deque
	enter []int32 // per node: next step index to enter the window
	peak  []int32 // per node: M_n at the current τ
	count []int32 // scratch: breakpoints per node (loadFixed)
}

// reset empties tl for a cluster of the given node count, lazily: the
// content is only marked empty (held) and cleared by the next use other
// than loadFixed, which may find it to be exactly the fixed state it is
// asked to load again.
func (tl *timelines) reset(nodes int) {
	if len(tl.span) == nodes {
		tl.held = true
		return
	}
	tl.clearTo(nodes)
}

// clearTo empties tl for real.
func (tl *timelines) clearTo(nodes int) {
	if len(tl.span) != nodes {
		tl.span = make([]span, nodes)
		tl.next = make([]int64, nodes)
		tl.head = make([]int32, nodes)
		tl.tail = make([]int32, nodes)
		tl.enter = make([]int32, nodes)
		tl.peak = make([]int32, nodes)
		tl.count = make([]int32, nodes)
	} else if tl.dirty {
		clear(tl.span)
	}
	tl.buf = tl.buf[:0]
	tl.ends = tl.ends[:0]
	tl.dirty, tl.pristine, tl.held = false, false, false
	tl.copyOf = nil
}

// materialize makes a held (logically empty) tl empty for real.
func (tl *timelines) materialize() {
	if tl.held {
		tl.clearTo(len(tl.span))
	}
}

// steps is node n's step function.
func (tl *timelines) steps(n int) []step {
	sp := tl.span[n]
	return tl.buf[sp.off : sp.off+sp.n]
}

// copyFrom makes tl hold the reservations of o.
//
// A copy of a pristine o (exactly its last fixed state loaded) into a tl
// that still holds an unmodified copy of that same state is skipped: the
// planner copies the fixed state at every plan, and it seldom changes.
func (tl *timelines) copyFrom(o *timelines) {
	o.materialize()
	if o.pristine && tl.copyOf == o.base && tl.copyOfVer == o.base.ver && len(tl.span) == len(o.span) {
		tl.held = false
		return
	}
	tl.clearTo(len(o.span))
	copy(tl.span, o.span)
	tl.buf = append(tl.buf, o.buf...)
	tl.ends = append(tl.ends, o.ends...)
	tl.dirty = o.dirty
	if o.pristine {
		tl.copyOf, tl.copyOfVer = o.base, o.base.ver
	}
}

// ensure returns the index (within node n's steps) of its breakpoint at
// x, inserting one that continues the previous use if there is none. The
// breakpoints before index lo are known to be before x; a breakpoint after
// all others (the common case: reservations are placed late in time) is
// appended without a search.
func (tl *timelines) ensure(n int, x int64, lo int) int {
	sp := &tl.span[n]
	st := tl.buf[sp.off : sp.off+sp.n]
	k := len(st)
	if k > 0 && st[k-1].at >= x {
		i, j := lo, k
		for i < j {
			h := int(uint(i+j) >> 1)
			if st[h].at < x {
				i = h + 1
			} else {
				j = h
			}
		}
		if k = i; st[k].at == x {
			return k
		}
	}
	var use int32
	if k > 0 {
		use = st[k-1].use
	}
	if sp.n == sp.cap {
		// Move the node to the end of the arena with twice the room.
		room := 2*sp.cap + 4
		off := int32(len(tl.buf))
		tl.buf = append(tl.buf, tl.buf[sp.off:sp.off+sp.n]...)
		tl.buf = append(tl.buf, make([]step, room-sp.n)...)
		sp.off, sp.cap = off, room
	}
	st = tl.buf[sp.off : sp.off+sp.n+1]
	copy(st[k+1:], st[k:])
	st[k] = step{at: x, use: use}
	sp.n++
	return k
}

// add reserves gpus GPUs of node n over [from, to) and records to as a
// candidate start.
func (tl *timelines) add(n int, from, to int64, gpus int32) {
	tl.materialize()
	tl.dirty = true
	tl.pristine = false
	tl.copyOf = nil
	tl.addEnd(to)
	if to <= from || gpus == 0 {
		return
	}
	tl.span[n].falling = false
	i := tl.ensure(n, from, 0)
	j := tl.ensure(n, to, i+1)
	st := tl.steps(n)
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
func (tl *timelines) advance(n int, tau, d int64) int32 {
	sp := tl.span[n]
	st := tl.buf[sp.off : sp.off+sp.n]
	dq := tl.dq[sp.off : sp.off+sp.cap]
	h, t, e := tl.head[n], tl.tail[n], tl.enter[n]
	for ; int(e) < len(st) && st[e].at < tau+d; e++ {
		if st[e].use <= 0 {
			continue
		}
		for t > h && st[dq[t-1]].use <= st[e].use {
			t--
		}
		dq[t] = e
		t++
	}
	for h < t && st[dq[h]+1].at <= tau {
		h++
	}
	tl.head[n], tl.tail[n], tl.enter[n] = h, t, e
	if h < t {
		return st[dq[h]].use
	}
	return 0
}

// earliest is the conservative-backfilling start of a job of r workers of
// w GPUs running d seconds, on nodes of g GPUs, at an operation at now
// (see the type comment). It leaves G − M_n(τ) per node in free and
// returns never if no candidate fits.
//
// The window maxima at now are computed first (written to free at once);
// only if the job does not fit then, nodes wait in a min-heap keyed by the next τ at which their
// window maximum can change: the next segment's entry s_e − d + 1 or the
// leave time of the deque's front (a segment behind the front is
// dominated, so its leaving changes nothing until it is the front). Events
// after the answer are never generated.
func (tl *timelines) earliest(now int64, g, w, r int, d int64, free []int) int64 {
	tl.materialize()
	if len(tl.dq) < len(tl.buf) {
		tl.dq = make([]int32, cap(tl.buf))
	}
	count := 0
	idle := fits(g, w) // a node without reservations
	peak := tl.peak[:len(free)]
	for n, sp := range tl.span {
		if sp.n == 0 {
			peak[n], free[n] = 0, g
			count += idle
			continue
		}
		var p int32
		if sp.falling {
			// The first segment meeting [now, now+d) holds the peak; the
			// deque is built only if the sweep below needs it.
			st := tl.buf[sp.off : sp.off+sp.n]
			k := 0
			for k+1 < len(st) && st[k+1].at <= now {
				k++
			}
			if st[k].at < now+d {
				p = max(st[k].use, 0)
			}
			tl.enter[n] = -1
		} else {
			tl.head[n], tl.tail[n], tl.enter[n] = 0, 0, 0
			p = tl.advance(n, now, d)
		}
		peak[n], free[n] = p, g-int(p)
		count += fits(g-int(p), w)
	}
	if count >= r {
		return now // free holds G − M_n(now)
	}
	tl.heap = tl.heap[:0]
	for n, sp := range tl.span {
		if sp.n == 0 {
			continue
		}
		if tl.enter[n] < 0 { // a falling node: build its window state at now
			tl.head[n], tl.tail[n], tl.enter[n] = 0, 0, 0
			tl.advance(n, now, d)
		}
		if tl.next[n] = tl.nextChange(n, d); tl.next[n] != never {
			tl.heap = append(tl.heap, int32(n))
		}
	}
	for i := len(tl.heap)/2 - 1; i >= 0; i-- {
		tl.down(i)
	}
	k, _ := slices.BinarySearch(tl.ends, now+1)
	for _, tau := range tl.ends[k:] {
		for len(tl.heap) > 0 && tl.next[tl.heap[0]] <= tau {
			n := int(tl.heap[0])
			old := peak[n]
			peak[n] = tl.advance(n, tau, d)
			count += fits(g-int(peak[n]), w) - fits(g-int(old), w)
			if tl.next[n] = tl.nextChange(n, d); tl.next[n] != never {
				tl.down(0)
			} else {
				tl.pop0()
			}
		}
		if count >= r {
			for n, p := range peak {
				free[n] = g - int(p)
			}
			return tau
		}
	}
	return never
}

// nextChange is the first τ after the last advance of node n at which its
// window maximum can change (never if none).
func (tl *timelines) nextChange(n int, d int64) int64 {
	sp := tl.span[n]
	st := tl.buf[sp.off : sp.off+sp.n]
	next := int64(never)
	if e := tl.enter[n]; int(e) < len(st) {
		next = st[e].at - d + 1
	}
	if h := tl.head[n]; h < tl.tail[n] {
		next = min(next, st[tl.dq[sp.off+h]+1].at)
	}
	return next
}

func (tl *timelines) less(a, b int32) bool {
	if tl.next[a] != tl.next[b] {
		return tl.next[a] < tl.next[b]
	}
	return a < b
}

// down restores the heap below i after the key at i grew.
func (tl *timelines) down(i int) {
	h := tl.heap
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
	tl.down(0)
}

// buildFixed is loadFixed from scratch, in O(N + R): one pass counts each
// node's breakpoints, the regions are laid out in node order with room for
// one more reservation (two breakpoints), a second pass fills them.
func (tl *timelines) buildFixed(now int64, use []int, rels []release) {
	tl.clearTo(len(use))
	cnt := tl.count
	for n, u := range use {
		cnt[n] = 0
		if u > 0 {
			cnt[n] = 1
		}
	}
	for _, rl := range rels {
		cnt[rl.node]++
	}
	off := int32(0)
	for n, c := range cnt {
		room := int32(0)
		if c > 0 {
			room = c + 2
		}
		tl.span[n] = span{off: off, cap: room, falling: true}
		off += room
	}
	tl.buf = slices.Grow(tl.buf, int(off))[:off]
	for n, u := range use {
		if u > 0 {
			sp := &tl.span[n]
			tl.buf[sp.off] = step{at: now, use: int32(u)}
			sp.n = 1
		}
	}
	for _, rl := range rels {
		sp := &tl.span[rl.node]
		last := &tl.buf[sp.off+sp.n-1]
		if last.at == rl.at {
			last.use -= rl.gpus
		} else {
			tl.buf[sp.off+sp.n] = step{at: rl.at, use: last.use - rl.gpus}
			sp.n++
		}
		if k := len(tl.ends); k == 0 || tl.ends[k-1] != rl.at {
			tl.ends = append(tl.ends, rl.at)
		}
	}
	tl.dirty = true
}

// fixedBase is the result of the last buildFixed and its inputs.
type fixedBase struct {
	now  int64
	use  []int
	rels []release
	span []span
	buf  []step
	ends []int64
	ok   bool
	ver  uint64 // incremented at every build
}

// loadFixed replaces the content of tl with the fixed jobs of a cluster
// at now: node n holds use[n] GPUs from now, and each release (sorted by
// time) gives back its GPUs at its time. Equivalent to adding a
// reservation [now, F) per fixed job and slot.
//
// The fixed jobs change only when one starts or finishes, so the result
// of the last build is kept with its inputs (built at t0) and reused when
// the inputs are equal and now ≥ t0: both are then the step function
// u_n(x) = Σ gpus of n's releases after x for every x ≥ now, which is all
// earliest and add ever read (windows start at now or later); they differ
// only in that each busy node's first breakpoint is at t0 instead of now.
// Checking costs two sequential comparisons of O(N + R); on a hit the
// content is copied back only if something was added since.
func (tl *timelines) loadFixed(now int64, use []int, rels []release) {
	if tl.base == nil {
		tl.base = new(fixedBase)
	}
	b := tl.base
	if b.ok && b.now <= now && slices.Equal(use, b.use) && slices.Equal(rels, b.rels) {
		if tl.pristine && len(tl.span) == len(use) {
			tl.held = false
			return
		}
		tl.clearTo(len(use))
		copy(tl.span, b.span)
		tl.buf = append(tl.buf, b.buf...)
		tl.ends = append(tl.ends, b.ends...)
		tl.dirty, tl.pristine = true, true
		return
	}
	tl.buildFixed(now, use, rels)
	b.now, b.ok = now, true
	b.ver++
	b.use = append(b.use[:0], use...)
	b.rels = append(b.rels[:0], rels...)
	b.span = append(b.span[:0], tl.span...)
	b.buf = append(b.buf[:0], tl.buf...)
	b.ends = append(b.ends[:0], tl.ends...)
	tl.pristine = true
}

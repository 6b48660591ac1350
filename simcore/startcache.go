package simcore

import "math/bits"

// startCache remembers, per worker shape (w, r), how far the earliest-start
// sweep of Eqs. 12–13 got on a planner's current state, so the next query
// of the same shape resumes there instead of sweeping every release again.
//
// Under Eq. 13 a placement at t only lowers σ(n, τ) (for τ < its finish)
// and moving the operation time forward leaves σ(·, τ) unchanged for
// τ ≥ t, so count_w(τ) = Σ_n ⌊max(0, σ(n, τ))/w⌋ never grows while a
// state is extended. Hence if no candidate before at fitted r workers
// once, none does later: at stays a lower bound on the earliest start, and
// the sweep may resume from σ(·, at), which the cache keeps up to date as
// jobs are placed (a job finishing after at holds its GPUs at at). The
// result is exactly the full sweep's. A rebuilt state (begin, or the
// prefix state of an MCT what-if) starts with an empty cache.
//
// Cost: a query is O(N) plus the releases between at and the answer, plus
// the placements made since the entry's last query; a placement is O(1)
// per slot (it joins the log below). Over one state the sweeps of one
// shape visit each release at most once.
//
// Placements are applied to the entries lazily: occupied appends them to
// a log, and an entry takes the log's new records when it is next looked
// up (or when the log is flushed). This is exact: an entry's at changes
// only in lookup and earliestSnap, which take the log first, so each
// record meets the entry with the at it would have met eagerly, and the
// entry sees the records in the same order as the eager updates did; its
// snapshot and count are then exactly the eager ones. An entry reloaded
// from σ(·, now) (its time passed) skips the log, since σ already holds
// every placement. What it saves: the updates of shapes that are never
// asked again before the state is rebuilt, carried past them or their
// entry is reloaded — in a long queue most shapes are asked a few times
// and every placement used to update every cached shape. Oracle:
// testHooks.eagerStartCache (the eager updates), TestStartCacheLazyMatchesEager
// on the instance families of TestLazyPlansMatchFullPlans and
// TestSpliceMatchesRebuild; the golden results.
type startCache struct {
	entries []startEntry
	used    int
	log     []heldRec // placements not yet applied to every entry
	eager   bool      // testHooks.eagerStartCache: apply placements at once
	flushAt int       // the log's bound: logFlushAt, or testHooks.startCacheFlushAt
}

// heldRec is a placement holding gpus GPUs of node until end.
type heldRec struct {
	end  int64
	node int32
	gpus int32
}

// logFlushAt bounds the log: once it holds this many records it is
// applied to every entry and emptied (flush), so a state carried across
// many operations keeps O(1) memory per entry.
const logFlushAt = 1024

type startEntry struct {
	w, r  int
	shift int   // w = 2^shift, or −1 when w is not a power of two
	at    int64 // no candidate τ < at fits r workers of w GPUs
	snap  []int // σ(n, at)
	count int   // Σ_n ⌊max(0, snap[n])/w⌋
	seen  int   // the log's records before seen are applied to snap
}

// fits is ⌊max(0, f)/w⌋, by a shift for the power-of-two demands of
// Table II (every one of them) and by division otherwise.
func (e *startEntry) fits(f int) int {
	if e.shift >= 0 {
		return max(f, 0) >> e.shift
	}
	return fits(f, e.w)
}

// reload sets the snapshot to sigma and its count, in one pass.
func (e *startEntry) reload(sigma []int) {
	e.snap = append(e.snap[:0], sigma...)
	snap := e.snap[:len(sigma)]
	count := 0
	if e.shift >= 0 {
		for _, f := range snap {
			count += max(f, 0) >> e.shift
		}
	} else {
		for _, f := range snap {
			count += fits(f, e.w)
		}
	}
	e.count = count
}

// apply takes the log's records from e.seen on (occupied's update).
func (e *startEntry) apply(log []heldRec) {
	for _, h := range log[e.seen:] {
		if h.end > e.at {
			old := e.snap[h.node]
			e.snap[h.node] -= int(h.gpus)
			e.count += e.fits(e.snap[h.node]) - e.fits(old)
		}
	}
	e.seen = len(log)
}

// flush applies the log to every entry and empties it.
func (c *startCache) flush() {
	for i := range c.entries[:c.used] {
		c.entries[i].apply(c.log)
		c.entries[i].seen = 0
	}
	c.log = c.log[:0]
}

// log2Exact is k when w = 2^k, else −1.
func log2Exact(w int) int {
	if w <= 0 || w&(w-1) != 0 {
		return -1
	}
	return bits.TrailingZeros(uint(w))
}

func (c *startCache) clear() { c.used, c.log = 0, c.log[:0] }

// dropBefore forgets the entries whose time has passed: a lookup would
// reload them from σ(·, now) anyway, and until then placements would keep
// updating them for nothing. Their buffers are kept for reuse.
func (c *startCache) dropBefore(now int64) {
	live := 0
	for i := range c.entries[:c.used] {
		if c.entries[i].at >= now {
			c.entries[live], c.entries[i] = c.entries[i], c.entries[live]
			live++
		}
	}
	c.used = live
	if live == 0 {
		c.log = c.log[:0]
	}
}

// lookup returns the entry of shape (w, r), creating one at now with
// σ(·, now) = sigma if there is none or if its time has passed.
func (c *startCache) lookup(w, r int, now int64, sigma []int) *startEntry {
	for i := range c.entries[:c.used] {
		e := &c.entries[i]
		if e.w == w && e.r == r {
			if e.at < now {
				e.at = now
				e.reload(sigma)
				e.seen = len(c.log)
			} else {
				e.apply(c.log)
			}
			return e
		}
	}
	if c.used == len(c.entries) {
		c.entries = append(c.entries, startEntry{snap: make([]int, len(sigma))})
	}
	e := &c.entries[c.used]
	c.used++
	e.w, e.r, e.at = w, r, now
	e.shift = log2Exact(w)
	e.reload(sigma)
	e.seen = len(c.log)
	return e
}

// occupied records a placement holding gpus GPUs of node from t to end:
// in the log, applied to the entries when next looked up (see the type
// comment), or at once under testHooks.eagerStartCache.
func (c *startCache) occupied(node int32, gpus int, end int64) {
	if c.used == 0 {
		return // an entry created later loads σ, which holds it
	}
	if c.eager {
		c.occupiedEager(node, gpus, end)
		return
	}
	c.log = append(c.log, heldRec{end: end, node: node, gpus: int32(gpus)})
	if len(c.log) >= c.flushAt {
		c.flush()
	}
}

// occupiedEager is occupied applied to every entry at once: the reference
// path (testHooks.eagerStartCache), on which the log stays empty.
func (c *startCache) occupiedEager(node int32, gpus int, end int64) {
	for i := range c.entries[:c.used] {
		if e := &c.entries[i]; end > e.at {
			old := e.snap[node]
			e.snap[node] -= gpus
			e.count += e.fits(e.snap[node]) - e.fits(old)
		}
	}
}

// earliestCached is earliest (Eqs. 12–13) through the start cache: the
// same τ, with σ(·, τ) left in p.free.
func (p *planner) earliestCached(w, r int) int64 {
	at, snap := p.earliestSnap(w, r)
	if at != never {
		copy(p.free, snap)
	}
	return at
}

// earliestSnap is earliestCached without the copy: σ(·, τ) is returned as
// the cache's own snapshot, to be read (not changed) before the state
// changes.
func (p *planner) earliestSnap(w, r int) (int64, []int) {
	// The hooks ride on whichever cache is current (the what-ifs swap a
	// prefix cache in); occupied does nothing before a first lookup.
	p.cache.eager, p.cache.flushAt = p.s.hooks.eagerStartCache, logFlushAt
	if h := p.s.hooks.startCacheFlushAt; h > 0 {
		p.cache.flushAt = h
	}
	e := p.cache.lookup(w, r, p.s.now, p.sigma)
	count := e.count
	if count < r {
		i := relAfter(p.rel, e.at)
		for i < len(p.rel) && count < r {
			at := p.rel[i].at
			for ; i < len(p.rel) && p.rel[i].at == at; i++ {
				n := p.rel[i].node
				old := e.snap[n]
				e.snap[n] += int(p.rel[i].gpus)
				count += e.fits(e.snap[n]) - e.fits(old)
			}
			e.at = at
		}
		e.count = count
		if count < r {
			return never, nil
		}
	}
	return e.at, e.snap
}

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
// Cost: a query is O(N) plus the releases between at and the answer; a
// placement is O(K · slots) for K cached shapes. Over one state the
// sweeps of one shape visit each release at most once.
type startCache struct {
	entries []startEntry
	used    int
}

type startEntry struct {
	w, r  int
	shift int   // w = 2^shift, or −1 when w is not a power of two
	at    int64 // no candidate τ < at fits r workers of w GPUs
	snap  []int // σ(n, at)
	count int   // Σ_n ⌊max(0, snap[n])/w⌋
}

// fits is ⌊max(0, f)/w⌋, by a shift for the power-of-two demands of
// Table II (every one of them) and by division otherwise.
func (e *startEntry) fits(f int) int {
	if e.shift >= 0 {
		return max(f, 0) >> e.shift
	}
	return fits(f, e.w)
}

func (e *startEntry) recount() {
	e.count = 0
	if e.shift >= 0 {
		for _, f := range e.snap {
			e.count += max(f, 0) >> e.shift
		}
		return
	}
	for _, f := range e.snap {
		e.count += fits(f, e.w)
	}
}

// log2Exact is k when w = 2^k, else −1.
func log2Exact(w int) int {
	if w <= 0 || w&(w-1) != 0 {
		return -1
	}
	return bits.TrailingZeros(uint(w))
}

func (c *startCache) clear() { c.used = 0 }

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
}

// lookup returns the entry of shape (w, r), creating one at now with
// σ(·, now) = sigma if there is none or if its time has passed.
func (c *startCache) lookup(w, r int, now int64, sigma []int) *startEntry {
	for i := range c.entries[:c.used] {
		e := &c.entries[i]
		if e.w == w && e.r == r {
			if e.at < now {
				e.at = now
				copy(e.snap, sigma)
				e.recount()
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
	e.snap = append(e.snap[:0], sigma...)
	e.recount()
	return e
}

// occupied records a placement holding gpus GPUs of node from t to end.
func (c *startCache) occupied(node int32, gpus int, end int64) {
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

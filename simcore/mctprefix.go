package simcore

import "slices"

// MCT's what-if on a plan prefix.
//
// finishIfAdded answers "when would job j finish if it were added to this
// cluster at its ranking position?" without disturbing the plan: a job's
// plan depends only on the jobs ranked before it, so they keep theirs, and
// the state after them is rebuilt in the prefix buffers (from the fixed
// state and the first k placed jobs' releases), swapped in for the query
// and swapped back. The oracles: the replan-all reference
// (testHooks.alwaysReplan; SimulateReplanning in the tests) in
// TestPlanReuseIsExact, and a plain MCT that asks every cluster in
// TestMCTShortcutIsExact.

// prefixBuffers hold the state after the fixed jobs only (kept with the
// plan where it is not the persistent fixed state, see fixedFromUse) and
// the state after a prefix of the plan.
type prefixBuffers struct {
	fixedSigma  []int
	fixedRel    []release
	fixedRes    []reservation
	fixedTL     timelines
	prefixSigma []int
	prefixRel   []release
	prefixRes   []reservation
	prefixTL    timelines
	prefixCache startCache
	sortTmp     []release // sortReleases' scratch
}

// finishIfAdded is the finish time job j would get if it were added to this
// cluster's plan at its ranking position (used by the MCT allocator). The
// jobs ranked before j keep their plan; j is placed after them. Under greedy
// backfilling the estimate uses the no-backfill reservation rule.
func (p *planner) finishIfAdded(j int) (int64, error) {
	if err := p.plan(); err != nil {
		return 0, err
	}
	s := p.s
	k := p.rankOf(j)
	if k > p.placed() {
		if err := p.ensure(k); err != nil { // the plan stopped early (horizon.go)
			return 0, err
		}
	}
	prefix := k < p.placed()
	if prefix {
		p.lz.hz.valid = false // the prefix state below is built in other buffers
		// The levels hold the full plan's state: they sit out the prefix
		// state (held leaves them alone) and stay valid for the plan.
		lvOK := p.lv.ok
		p.lv.ok = false
		defer func() { p.lv.ok = lvOK }()
		// Build the state after the first k ranked jobs in the prefix
		// buffers, then swap them in for the query and back out, so the
		// full plan stays valid.
		p.sigma, p.pre.prefixSigma = p.pre.prefixSigma, p.sigma
		p.rel, p.pre.prefixRel = p.pre.prefixRel, p.rel
		p.res, p.pre.prefixRes = p.pre.prefixRes, p.res
		p.tl, p.pre.prefixTL = p.pre.prefixTL, p.tl
		defer func() {
			p.sigma, p.pre.prefixSigma = p.pre.prefixSigma, p.sigma
			p.rel, p.pre.prefixRel = p.pre.prefixRel, p.rel
			p.res, p.pre.prefixRes = p.pre.prefixRes, p.res
			p.tl, p.pre.prefixTL = p.pre.prefixTL, p.tl
			p.cache, p.pre.prefixCache = p.pre.prefixCache, p.cache
		}()
		p.cache, p.pre.prefixCache = p.pre.prefixCache, p.cache
		p.cache.clear()
		fixedRel := p.pre.fixedRel
		if p.fixedFromUse() {
			p.sigma = slices.Grow(p.sigma[:0], p.nodes)[:p.nodes]
			for n := range p.sigma {
				p.sigma[n] = p.g - p.fixedUse[n]
			}
			fixedRel = p.fixedRels
			p.rel = append(p.rel[:0], fixedRel...)
			p.res = p.res[:0]
		} else {
			p.sigma = append(p.sigma[:0], p.pre.fixedSigma...)
			p.rel = append(p.rel[:0], p.pre.fixedRel...)
			p.res = append(p.res[:0], p.pre.fixedRes...)
			if s.opts.Backfill == BackfillConservative {
				p.tl.copyFrom(&p.pre.fixedTL)
			}
		}
		if p.last.built && len(p.last.order) == len(p.jobs) {
			// The plan just built holds the first k jobs' releases in
			// orderRel: one sort and merge instead of k insertions.
			pre := p.last.orderRel[:p.last.orderOff[k]]
			for _, r := range pre {
				p.sigma[r.node] -= int(r.gpus)
			}
			p.batch = append(p.batch[:0], pre...)
			p.countRadix(sortReleases(p.batch, &p.pre.sortTmp, s.hooks.refReleaseSort)) // relsort.go
			p.rel = mergeReleases(p.rel[:0], fixedRel, p.batch)
		} else {
			for _, o := range p.jobs[:k] {
				if s.planStart[o] != never {
					p.occupy(o, s.planStart[o], s.planStart[o]+p.rem(o), s.planPlace[o])
				}
			}
		}
	}
	job := &s.inst.Jobs[j]
	var start int64
	if s.opts.Backfill == BackfillConservative {
		start = p.earliestReserved(job.PerWorker(), job.Workers, p.rem(j))
	} else if s.replan {
		start = p.earliest(job.PerWorker(), job.Workers)
	} else if p.levelsOn() && !prefix {
		start = p.levelStart(job.PerWorker(), job.Workers)
	} else {
		start, _ = p.earliestSnap(job.PerWorker(), job.Workers) // σ(·, start) is not needed
	}
	if start == never {
		return never, nil
	}
	return start + p.rem(j), nil
}

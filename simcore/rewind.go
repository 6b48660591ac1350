package simcore

// Incremental re-planning (no backfilling, Eq. 13).
//
// Under Eq. 13 a job's plan depends only on the jobs ranked before it, so
// when a ranking whose keys move with q or t reorders a cluster's queue,
// the jobs before the first changed rank keep their plan. rewindable finds
// that rank c on the last plan built; rewind removes the plan's tail (the
// old jobs from rank c on) from the carried state — their GPUs go back to
// σ and their releases leave the sorted release list in one merge pass —
// and plan places the new ranking from rank c on. This is the state a
// rebuild would reach after the first c jobs, by the argument of
// extendable applied to the prefix; the tests compare it with rebuilding
// every plan (testHooks.alwaysReplan; SimulateReplanning in the tests).

// goneLead is the number of leading jobs of the last plan's order that
// have since finished or become fixed.
func (p *planner) goneLead() int {
	s := p.s
	m := 0
	for m < len(p.last.order) && (s.state[p.last.order[m]] == done || s.isFixed(p.last.order[m])) {
		m++
	}
	return m
}

// rewindable returns the number c ≥ 1 of leading jobs of the fresh
// ranking whose plan the last plan built already holds, when the rest of
// that plan can be undone: (i) the finished or fixed jobs of the old order
// form a prefix of it (as for extendable) and none is in the undone tail;
// (ii) if a job of this cluster finished since, each running job among
// the c is placed again now exactly where it runs. A rebuild would place
// it at t' on σ(·, t') after the fixed jobs and the jobs ranked before it
// (which may differ from σ at the last plan's time), so the rule is
// checked by placing it on that state: if its placer puts it on the same
// nodes, the state after it is the rebuild's and the kept plan continues.
func (p *planner) rewindable() (m, c int, ok bool) {
	s := p.s
	if !p.last.built {
		return 0, 0, false
	}
	m = p.goneLead()
	kept := p.last.order[m:]
	if p.last.completed {
		p.rw.verify = p.rw.verify[:0]
		for n := range p.nodes {
			p.rw.verify = append(p.rw.verify, p.g-p.fixedUse[n])
		}
	}
	placedKept := p.placed() - m // a plan that stopped early holds no more (horizon.go)
	for c < placedKept && c < len(p.jobs) {
		if p.rankTo(c + 1); kept[c] != p.jobs[c] {
			break
		}
		if p.last.completed {
			j := kept[c]
			if s.state[j] == running && !p.placedAgainSame(j) {
				break
			}
			w := s.inst.Jobs[j].PerWorker()
			for _, sl := range s.planPlace[j] {
				p.rw.verify[sl.Node] -= int(sl.Workers) * w
			}
		}
		c++
	}
	if c == 0 {
		return 0, 0, false
	}
	for _, j := range kept[c:] {
		if s.state[j] == done || s.isFixed(j) {
			return 0, 0, false
		}
	}
	return m, c, true
}

// rewind undoes the old order's jobs from m+c on: their GPUs return to σ
// from t and their releases are removed. The start cache is cleared, since
// capacity grew.
func (p *planner) rewind(m, c int) {
	p.batch = append(p.batch[:0], p.last.orderRel[p.last.orderOff[m+c]:]...)
	if len(p.batch) == 0 {
		return // nothing to undo; the start cache stays valid
	}
	for _, r := range p.batch {
		p.sigma[r.node] += int(r.gpus)
	}
	// Remove each batch entry once from rel: find it in its time group by
	// binary search, mark it (node −1), then compact rel in one pass.
	// O(k log R + R) for k undone releases, with no sort of the batch.
	for _, r := range p.batch {
		i := relAfter(p.rel, r.at-1)
		for ; i < len(p.rel) && p.rel[i].at == r.at; i++ {
			if q := p.rel[i]; q.node == r.node && q.gpus == r.gpus {
				p.rel[i].node = -1
				break
			}
		}
	}
	out := p.rel[:0]
	for _, r := range p.rel {
		if r.node >= 0 {
			out = append(out, r)
		}
	}
	p.rel = out
	p.cache.clear()
	p.lv.ok = false
	p.levelsFromFixed(p.last.orderRel[p.last.orderOff[m]:p.last.orderOff[m+c]])
	p.lz.hz.valid = false
}

// placedAgainSame reports whether running job j, placed now on σ(·, t')
// held in p.rw.verify, would start now on exactly its current nodes.
func (p *planner) placedAgainSame(j int) bool {
	s := p.s
	job := &s.inst.Jobs[j]
	w, r := job.PerWorker(), job.Workers
	if countFits(p.rw.verify, w) < r {
		return false
	}
	copy(p.free, p.rw.verify)
	clear(p.place)
	s.list.Placer.Place(p.free, w, r, p.place)
	k := 0
	for n, x := range p.place {
		if x == 0 {
			continue
		}
		if k >= len(s.planPlace[j]) || s.planPlace[j][k] != (Slot{Node: int32(n), Workers: int32(x)}) {
			return false
		}
		k++
	}
	return k == len(s.planPlace[j])
}

// rewindScratch is rewind's verification state.
type rewindScratch struct {
	verify []int // σ(·, t') after the fixed and verified jobs
}

package hydra

import "context"

// AlloX is the AlloX baseline (SPEC §13; Le et al., EuroSys'20): the
// waiting jobs are matched to slots (GPU g, position k from the end of g's
// queue) with a minimum-cost assignment, then each GPU's slots are read in
// queue order (largest k first).
//
// A job at position k from the end of g's queue delays itself and the k
// jobs behind it, so with every GPU idle its share of the batch's total
// completion time is (k+1)·d_{j,type(g)} — SPEC §13's slot cost, Horn's
// reduction of R||ΣC_j to an assignment problem. A busy GPU is free only
// after its offset o_g, which every job queued on it waits for; the slot
// cost used here is therefore (k+1)·d_{j,type(g)} + o_g, equal to SPEC's
// on idle GPUs, so that the matching minimises the batch's total completion
// time also while some GPUs are still busy (a decision of this
// implementation; see docs/DESIGN.md).
//
// The slot costs increase with k for every job, so an optimal matching
// fills each GPU's positions from k = 0 upwards, and the Hungarian method
// can start with one slot per GPU and open slot (g, k+1) only once (g, k)
// is matched: a new column has v = 0 and costs at least those of the free
// column (g, k), which keeps the dual feasible, and the never-opened slots
// stay dual feasible for the same reason, so the result is optimal over
// all W·|K| slots while the method sees at most W + |K| columns.
func AlloX(ctx context.Context, p *Problem) (Schedule, error) {
	if err := p.Validate(); err != nil {
		return Schedule{}, err
	}
	rows := p.byID()
	nw := len(rows)
	type slot struct{ gpu, pos int }
	var slots []slot
	next := make([]int, len(p.GPUs)) // the next position to open per GPU
	cost := func(i, c int) int64 {
		s := slots[c]
		g := p.GPUs[s.gpu]
		d := p.Jobs[rows[i]].Dur[g.Type]
		if d <= 0 {
			return Forbidden
		}
		return int64(s.pos+1)*d + g.Offset
	}
	h := newHungarian(nw, 0, cost)
	open := func(g int) {
		if next[g] < nw {
			slots = append(slots, slot{g, next[g]})
			next[g]++
			h.addColumn()
		}
	}
	for g := range p.GPUs {
		open(g)
	}
	for i := range nw {
		if i%16 == 0 {
			if err := ctx.Err(); err != nil {
				return Schedule{}, err
			}
		}
		c, err := h.augment(i)
		if err != nil {
			return Schedule{}, err
		}
		open(slots[c].gpu)
	}
	// Positions 0..n_g−1 are used on each GPU; the queue runs from the
	// largest position to 0.
	byGPU := make([][]int, len(p.GPUs)) // byGPU[g][k] = row at position k
	for g := range byGPU {
		byGPU[g] = make([]int, 0, next[g])
	}
	for i, c := range h.rowCols() {
		s := slots[c]
		for len(byGPU[s.gpu]) <= s.pos {
			byGPU[s.gpu] = append(byGPU[s.gpu], -1)
		}
		byGPU[s.gpu][s.pos] = rows[i]
	}
	sched := Schedule{Queues: make([][]int, len(p.GPUs))}
	for g, ks := range byGPU {
		for k := len(ks) - 1; k >= 0; k-- {
			if ks[k] < 0 {
				return Schedule{}, errPositionGap
			}
			sched.Queues[g] = append(sched.Queues[g], ks[k])
		}
	}
	return sched, nil
}

package evo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/evogp/evogp/simcore"
)

// Params configure the evolutionary job-to-cluster allocator (SPEC §11).
type Params struct {
	Population  int     // n ≥ 2 (default 100)
	Generations int     // ≥ 0 (default 200)
	Mutation    float64 // r ∈ [0, 1], probability that both children mutate (default 0.1)
	Stall       int     // stop after this many generations without improvement; 0 = off
	Budget      int     // at most this many individual evaluations per operation; 0 = off, else ≥ Population
	Init        string  // "seeded" (default): two individuals are the current and the pure-MCT assignment; "random"
	Seed        uint64  // the run seed; operation k draws from a generator seeded by (Seed, k)
	Workers     int     // goroutines planning clusters (≤ 1: serial); results do not depend on it
}

// DefaultParams are SPEC §11's defaults.
func DefaultParams() Params {
	return Params{Population: 100, Generations: 200, Mutation: 0.1, Init: "seeded", Seed: 1}
}

// Validate rejects out-of-range parameters.
func (p Params) Validate() error {
	switch {
	case p.Population < 2:
		return fmt.Errorf("evo.population = %d: must be ≥ 2", p.Population)
	case p.Generations < 0:
		return fmt.Errorf("evo.generations = %d: must be ≥ 0", p.Generations)
	case !(p.Mutation >= 0 && p.Mutation <= 1):
		return fmt.Errorf("evo.mutation = %v: must be in [0, 1]", p.Mutation)
	case p.Stall < 0:
		return fmt.Errorf("evo.stall = %d: must be ≥ 0 (0 = off)", p.Stall)
	case p.Budget != 0 && p.Budget < p.Population:
		return fmt.Errorf("evo.budget = %d: must be 0 (off) or at least the population (%d), which the first generation evaluates", p.Budget, p.Population)
	case p.Init != "seeded" && p.Init != "random":
		return fmt.Errorf("evo.init = %q: want seeded or random", p.Init)
	}
	return nil
}

// EVO is Algorithm 1 of the paper as SPEC §11 states it: at every
// operation it re-decides the cluster of every job of Js by a (μ+λ)
// genetic algorithm over job-to-cluster assignments, each decoded into a
// plan by the list scheduler's own per-cluster resource allocation
// (Algorithm 2: the configured ranking, placer and backfill mode) and
// scored by Eqs. 2–5 (or Eq. 16) evaluated at t.
//
// A cluster's plan depends only on the Js jobs assigned to it, so its
// contribution to the fitness is cached within the operation by
// (cluster, member set) — the set identified by a 128-bit Zobrist hash,
// kept up to date through crossover and mutation — and a child that
// differs from its parents on two clusters replans two. Under greedy
// backfilling the decoding uses the no-backfill rule, as MCT's what-if
// does, so every job has a start time to score.
//
// The member sets are planned by the allocation seam's what-if planners
// (simcore.WhatIfPlanner): without backfilling (and under greedy), with the
// best-fit or round-robin placer, by simcore's level planner, an exact
// re-formulation of Eq. 13 whose state after any prefix of the last plan
// is restored by an undo log; each generation's new member sets are
// planned in lexicographic rank order so that each one re-plans only from
// its first rank that differs from the previous one, and the fitness
// contributions of the common prefix are kept. Other modes use the list
// scheduler's what-if planner.
type EVO struct {
	Params Params
}

// New returns the allocator with validated parameters.
func New(p Params) (EVO, error) {
	if err := p.Validate(); err != nil {
		return EVO{}, err
	}
	return EVO{Params: p}, nil
}

// CheckBackfill implements simcore.BackfillChecker.
func (EVO) CheckBackfill(b simcore.Backfill) error {
	if b == simcore.BackfillStrict || b == simcore.BackfillPreemptive {
		return errors.New("the evo allocator plans with reservations and does not support backfill strict or preemptive")
	}
	return nil
}

// clusterEval is a cluster's contribution to the fitness at t.
type clusterEval struct {
	sumUQ, maxUQ float64 // Σ and max of u_j·q_j^(t) (seconds)
	sumJCT       float64 // Σ (F_j − a_j)
	maxQ         float64 // max q_j^(t)
	maxF         int64   // max F_j
	work         float64 // Σ g_j·rem_j
	tard         float64 // Σ max(0, F_j − deadline_j) over jobs with a deadline
	jobs         int
}

// add counts one unfinished job that has queued q seconds by its start
// at and then runs rem seconds: q_j^(t) = q, F_j = at + rem.
func (c *clusterEval) add(job *simcore.Job, q, at, rem int64) {
	uq := float64(job.Priority) * float64(q)
	f := at + rem
	c.sumUQ += uq
	c.maxUQ = max(c.maxUQ, uq)
	c.sumJCT += float64(f - job.Arrival)
	c.maxQ = max(c.maxQ, float64(q))
	c.maxF = max(c.maxF, f)
	c.work += float64(job.GPUs) * float64(rem)
	c.tard += float64(simcore.Tardiness(job.Deadline, f))
	c.jobs++
}

// jobTerms are the terms of clusterEval.add that do not depend on the
// start, for one candidate job on one cluster (precomputed).
type jobTerms struct {
	rem      int64 // rem_{j,p}
	q        int64 // q_j so far
	prio     float64
	arrival  int64
	deadline int64
	work     float64 // g_j·rem_j
}

// addTerms is add for a job started at at from its precomputed terms: the
// same operations in the same order, so the same bits.
func (c *clusterEval) addTerms(j *jobTerms, q, at int64) {
	uq := j.prio * float64(q)
	f := at + j.rem
	c.sumUQ += uq
	c.maxUQ = max(c.maxUQ, uq)
	c.sumJCT += float64(f - j.arrival)
	c.maxQ = max(c.maxQ, float64(q))
	c.maxF = max(c.maxF, f)
	c.work += j.work
	if t := simcore.Tardiness(j.deadline, f); t > 0 {
		c.tard += float64(t) // else the tardiness is 0, and adding +0 to c.tard (≥ +0) changes nothing
	}
	c.jobs++
}

// terms is c as the objective's terms at t (simcore.ObjectiveTerms).
func (c clusterEval) terms() simcore.ObjectiveTerms {
	return simcore.ObjectiveTerms{SumUQ: c.sumUQ, MaxUQ: c.maxUQ, SumJCT: c.sumJCT, MaxQ: c.maxQ, MaxF: c.maxF, Work: c.work, Tard: c.tard, Jobs: c.jobs}
}

func (c *clusterEval) merge(o clusterEval) {
	c.sumUQ += o.sumUQ
	c.maxUQ = max(c.maxUQ, o.maxUQ)
	c.sumJCT += o.sumJCT
	c.maxQ = max(c.maxQ, o.maxQ)
	c.maxF = max(c.maxF, o.maxF)
	c.work += o.work
	c.tard += o.tard
	c.jobs += o.jobs
}

// setKey identifies a cluster's member set.
type setKey struct {
	cluster int
	h1, h2  uint64
}

// evoOp is the state of one EVO allocation.
type evoOp struct {
	a       *simcore.Allocation
	inst    *simcore.Instance
	now     int64
	params  Params
	js      []int   // Js, (arrival, id) order
	feas    [][]int // feasible clusters per gene
	feasOn  []bool  // feasOn[g·P + p]: gene g may go to cluster p
	z1, z2  []uint64
	base    []clusterEval // the Jn jobs' contribution per cluster
	cache   evalCache
	workers [][]*simcore.WhatIfPlanner // workers[w][p]: worker w's what-if planner of cluster p
	// acc[w][p][d]: the contribution of the first d members of the last
	// plan of workers[w][p] (acc[w][p][0] is the empty set's).
	acc [][][]clusterEval
	// terms[p][r]: the start-independent terms of the job at rank
	// position r on cluster p.
	terms [][]jobTerms
	// Scratch of evaluate, reused across generations.
	todo      []evoPending
	rankArena []int32
	results   []clusterEval
	errs      []error
	// rankOrder[p]: the genes feasible on p in ranking order on p, so a
	// member set is gathered already sorted.
	rankOrder [][]int
	rankGenes [][]int32 // rankOrder as int32, for gathering members
	evals     int
	cap       float64 // Σ_p G_p·N_p
	// obj and kind are the options' objective and its kind (MultiCluster
	// when unset), resolved once per operation: fitness runs per
	// evaluation, and copying the options there cost 2–3 % at |Js| = 50.
	obj  simcore.Objective
	kind simcore.ObjectiveKind
}

// individual is a genome with its clusters' member-set keys, its fitness
// and a 128-bit hash of the genome (equal genomes have equal hashes; survival uses it to skip
// comparing copies gene by gene).
type individual struct {
	genes  []int32
	keys   []setKey // the member-set key of each cluster (nil until evaluated)
	fit    float64
	h1, h2 uint64
}

// Allocate implements simcore.Allocator.
func (e EVO) Allocate(a *simcore.Allocation) error {
	start := time.Now()
	// The current assignment: previous clusters, arrivals by MCT.
	if err := (simcore.MCT{}).Allocate(a); err != nil {
		return err
	}
	js := a.Schedulable()
	if len(js) == 0 || a.Clusters() == 1 {
		return nil
	}
	op := newEVOOp(a, e.Params, js)
	current := make([]int32, len(js))
	for g, j := range op.js {
		current[g] = int32(a.Assigned(j))
	}
	best, gens, mctFit, err := op.run(current)
	if err != nil {
		return err
	}
	for g, j := range op.js {
		a.Assign(j, int(best.genes[g]))
	}
	a.RecordOp(simcore.OpRecord{Time: a.Now(), Js: len(js), Generations: gens, Evaluations: op.evals,
		MCTFitness: mctFit, EVOFitness: best.fit, WallMS: float64(time.Since(start).Microseconds()) / 1000})
	return nil
}

func newEVOOp(a *simcore.Allocation, p Params, js []int) *evoOp {
	return newOp(a, p, js, a.WhatIfs)
}

// newOp is newEVOOp with the what-if planners of whatIfs (tests:
// Allocation.ReferenceWhatIfs).
func newOp(a *simcore.Allocation, p Params, js []int, whatIfs func(k int, order [][]int) [][]*simcore.WhatIfPlanner) *evoOp {
	st := a.State()
	op := &evoOp{a: a, inst: a.Instance(), now: a.Now(), params: p, js: slices.Clone(js)}
	op.obj = a.Options().Objective
	op.kind = op.obj.Kind
	if op.kind == nil {
		op.kind = simcore.MultiCluster
	}
	P := a.Clusters()
	op.feas = make([][]int, len(js))
	op.z1 = make([]uint64, len(js))
	op.z2 = make([]uint64, len(js))
	for g, j := range op.js {
		for q := range P {
			ok := a.Feasible(j, q)
			op.feasOn = append(op.feasOn, ok)
			if ok {
				op.feas[g] = append(op.feas[g], q)
			}
		}
		id := uint64(op.inst.Jobs[j].ID)
		op.z1[g] = splitmix(id ^ 0x9e3779b97f4a7c15)
		op.z2[g] = splitmix(id ^ 0xd1b54a32d192ed03)
	}
	for _, c := range op.inst.Clusters {
		op.cap += float64(c.GPUs())
	}
	// The Jn jobs (fixed on their clusters) contribute the same to every
	// individual.
	op.base = make([]clusterEval, P)
	for _, j := range st.Active() {
		if !st.IsFixed(j) {
			continue
		}
		q := st.Assigned(j)
		op.base[q].add(&op.inst.Jobs[j], st.Queued(j), op.now, st.RemainingOn(j, q))
	}
	candidates := make([][]int, P)
	for q := range P {
		var genes, jobs []int
		for g, j := range op.js {
			if a.Feasible(j, q) {
				genes = append(genes, g)
				jobs = append(jobs, j)
			}
		}
		perm := a.RankOrder(q, jobs)
		order := make([]int, len(perm))
		ranked := make([]int, len(perm))
		terms := make([]jobTerms, len(perm))
		for k, i := range perm {
			order[k], ranked[k] = genes[i], jobs[i]
			job := &op.inst.Jobs[jobs[i]]
			rem := st.RemainingOn(jobs[i], q)
			terms[k] = jobTerms{rem: rem, q: st.Queued(jobs[i]), prio: float64(job.Priority), arrival: job.Arrival,
				deadline: job.Deadline, work: float64(job.GPUs) * float64(rem)}
		}
		op.rankOrder = append(op.rankOrder, order)
		genes32 := make([]int32, len(order))
		for k, g := range order {
			genes32[k] = int32(g)
		}
		op.rankGenes = append(op.rankGenes, genes32)
		op.terms = append(op.terms, terms)
		candidates[q] = ranked
	}
	op.workers = whatIfs(max(1, p.Workers), candidates)
	op.acc = make([][][]clusterEval, len(op.workers))
	for w := range op.workers {
		op.acc[w] = make([][]clusterEval, P)
		for q := range P {
			acc := make([]clusterEval, len(candidates[q])+1)
			acc[0] = clusterEval{maxF: op.now}
			op.acc[w][q] = acc
		}
	}
	return op
}

// plan plans the member set ranks (rank positions on cluster p,
// ascending) on worker w's planner and returns its contribution to the
// fitness at t: summed job by job in ranking order, from the first
// position the planner re-planned (the sums before it are the last
// plan's).
func (op *evoOp) plan(w, p int, ranks []int32) (clusterEval, error) {
	wp := op.workers[w][p]
	from, err := wp.Plan(ranks)
	if err != nil {
		return clusterEval{}, err
	}
	acc, terms, starts := op.acc[w][p], op.terms[p], wp.Starts()
	for d := from; d < len(ranks); d++ {
		t := &terms[ranks[d]]
		st := starts[d]
		acc[d+1] = acc[d]
		acc[d+1].addTerms(t, t.q+st-op.now, st)
	}
	return acc[len(ranks)], nil
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// splitmix is a 64-bit mixing function (SplitMix64's finaliser).
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// keys appends the member-set key of every cluster of genes to out.
func (op *evoOp) keys(genes []int32, out []setKey) []setKey {
	P := len(op.inst.Clusters)
	from := len(out)
	for p := range P {
		out = append(out, setKey{cluster: p, h1: splitmix(uint64(p) + 1), h2: splitmix(uint64(p) + 7)})
	}
	ks := out[from:]
	for g, c := range genes {
		ks[c].h1 ^= op.z1[g]
		ks[c].h2 ^= op.z2[g]
	}
	return out
}

// evaluate sets the fitness of every individual of pop, planning the
// clusters whose member sets are not cached yet — in parallel across the
// what-if planners, merged in a fixed order, so the result does not depend
// on the number of workers.
func (op *evoOp) evaluate(pop []individual) error {
	for i := range pop {
		if pop[i].keys == nil {
			pop[i].keys = op.keys(pop[i].genes, nil)
		}
	}
	todo := op.todo[:0]
	arena := op.rankArena[:0]
	op.cache.reserve(len(pop) * len(op.inst.Clusters))
	for i := range pop {
		for p, k := range pop[i].keys {
			slot, ok := op.cache.queue(k)
			if !ok {
				continue // planned, or queued by an earlier individual
			}
			from := len(arena)
			// Every rank is written and kept only if its gene is on p:
			// no branch on an unpredictable test.
			genes, p32, order := pop[i].genes, int32(p), op.rankGenes[p]
			if cap(arena)-from < len(order) {
				arena = slices.Grow(arena, len(order))
			}
			buf := arena[from : from+len(order)]
			m := 0
			for r, g := range order {
				buf[m] = int32(r)
				m += b2i(genes[g] == p32)
			}
			arena = arena[:from+m]
			todo = append(todo, evoPending{key: k, slot: slot, from: from, to: len(arena)})
		}
	}
	for i := range todo {
		todo[i].ranks = arena[todo[i].from:todo[i].to:todo[i].to]
	}
	op.todo, op.rankArena = todo, arena
	// Plan each cluster's member sets in lexicographic order of their
	// ranked members, so consecutive plans share their longest common
	// rank prefix and are re-planned only from the first rank that
	// differs. A plan depends only on its member set, so the order changes
	// no result.
	slices.SortFunc(todo, func(a, b evoPending) int {
		if c := cmp.Compare(a.key.cluster, b.key.cluster); c != 0 {
			return c
		}
		return slices.Compare(a.ranks, b.ranks)
	})
	results := slices.Grow(op.results[:0], len(todo))[:len(todo)]
	errs := slices.Grow(op.errs[:0], len(todo))[:len(todo)]
	clear(errs)
	op.results, op.errs = results, errs
	nw := len(op.workers)
	if nw == 1 || len(todo) < 2 {
		for i := range todo {
			results[i], errs[i] = op.planPending(0, todo[i])
		}
	} else {
		// Contiguous chunks keep neighbouring member sets on one worker.
		chunk := max(1, len(todo)/(4*nw))
		var wg sync.WaitGroup
		next := make(chan int)
		for w := range nw {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for from := range next {
					for i := from; i < min(from+chunk, len(todo)); i++ {
						results[i], errs[i] = op.planPending(w, todo[i])
					}
				}
			}(w)
		}
		for from := 0; from < len(todo); from += chunk {
			next <- from
		}
		close(next)
		wg.Wait()
	}
	for i, t := range todo {
		if errs[i] != nil {
			return errs[i]
		}
		sl := &op.cache.slots[t.slot]
		sl.val, sl.state = results[i], slotPlanned
	}
	for i := range pop {
		ks := pop[i].keys
		pop[i].fit = op.fitness(ks)
		pop[i].h1, pop[i].h2 = 0, 0
		for _, k := range ks {
			pop[i].h1 = splitmix(pop[i].h1 ^ k.h1)
			pop[i].h2 = splitmix(pop[i].h2 ^ k.h2)
		}
	}
	op.evals += len(pop)
	return nil
}

// evoPending is a member set to plan: its key and the rank positions of
// its members on the cluster (ascending).
type evoPending struct {
	key      setKey
	slot     int // in the cache
	ranks    []int32
	from, to int // ranks in the arena
}

// planPending plans one member set on worker w's planners.
func (op *evoOp) planPending(w int, t evoPending) (clusterEval, error) {
	return op.plan(w, t.key.cluster, t.ranks)
}

// fitness combines the clusters' contributions into the objective at t
// (SPEC §11), in hours.
func (op *evoOp) fitness(ks []setKey) float64 {
	var tot clusterEval
	tot.maxF = op.now
	for p, k := range ks {
		tot.merge(op.base[p])
		tot.merge(op.cache.get(k))
	}
	if tot.jobs == 0 {
		return 0 // as Objective.AtT
	}
	return op.kind.AtT(op.obj, tot.terms(), op.now, op.cap)
}

// lessIndividual orders individuals by fitness, then genome
// (lexicographic). Copies of one genome (equal hashes) compare equal
// without a scan.
func lessIndividual(a, b individual) int {
	if c := cmp.Compare(a.fit, b.fit); c != 0 {
		return c
	}
	if a.h1 == b.h1 && a.h2 == b.h2 {
		return 0
	}
	return slices.Compare(a.genes, b.genes)
}

// run evolves the assignment and returns the best individual, the
// generations run and the fitness of the current assignment.
func (op *evoOp) run(current []int32) (individual, int, float64, error) {
	p := op.params
	rng := rand.New(rand.NewPCG(p.Seed, uint64(op.a.Op())))
	n := p.Population
	pop := make([]individual, 0, n)
	random := func() []int32 {
		g := make([]int32, len(op.js))
		for k, f := range op.feas {
			g[k] = int32(f[rng.IntN(len(f))])
		}
		return g
	}
	cur := individual{genes: slices.Clone(current)}
	if err := op.evaluate([]individual{cur}); err != nil {
		return individual{}, 0, 0, err
	}
	op.evals = 0
	currentFit := op.fitness(op.keys(cur.genes, nil))
	cur.fit = currentFit
	if p.Init == "seeded" {
		mct, err := op.pureMCT()
		if err != nil {
			return individual{}, 0, 0, err
		}
		pop = append(pop, cur, individual{genes: mct})
	}
	for len(pop) < n {
		pop = append(pop, individual{genes: random()})
	}
	if err := op.evaluate(pop); err != nil {
		return individual{}, 0, 0, err
	}
	slices.SortFunc(pop, lessIndividual)
	// Exact shortcut: on a homogeneous instance, when the current
	// assignment starts every Js job at t, every q_j^(t) is already q_j and
	// every F_j is t + rem_j whatever the clusters, so no assignment scores
	// better.
	if p.Init == "seeded" && !op.a.Heterogeneous() && op.startsAllNow(cur.genes) {
		return cur, 0, currentFit, nil
	}
	children := make([]individual, 0, n+1)
	survivors := make([]individual, 0, n) // the next population's buffer
	var spare []individual                // individuals that did not survive: their buffers are reused
	blank := func() individual {
		if k := len(spare); k > 0 {
			d := spare[k-1]
			spare = spare[:k-1]
			return d
		}
		return individual{genes: make([]int32, len(op.js)), keys: make([]setKey, len(op.inst.Clusters))}
	}
	gens, stall := 0, 0
	for gens < p.Generations {
		if p.Budget > 0 && op.evals+n > p.Budget {
			break
		}
		children = children[:0]
		for len(children) < n {
			a, b := pop[rng.IntN(len(pop))], pop[rng.IntN(len(pop))]
			c1, c2 := blank(), blank()
			op.crossover(rng, a, b, &c1, &c2)
			if rng.Float64() < p.Mutation {
				op.mutate(rng, c1.genes, c1.keys)
				op.mutate(rng, c2.genes, c2.keys)
			}
			children = append(children, c1, c2)
		}
		if err := op.evaluate(children); err != nil {
			return individual{}, 0, 0, err
		}
		bestBefore := pop[0].fit
		var next []individual
		next, spare = survive(pop, children, n, survivors[:0], spare)
		pop, survivors = next, pop
		gens++
		if pop[0].fit < bestBefore {
			stall = 0
		} else if stall++; p.Stall > 0 && stall >= p.Stall {
			break
		}
		if err := op.a.Context().Err(); err != nil {
			return individual{}, 0, 0, err
		}
	}
	return pop[0], gens, currentFit, nil
}

// survive is (μ + λ) survival: it appends to next the n least of the
// sorted parents pop and the children (sorted here), in order, and the
// others to dropped. The parents being sorted, the children are merged in
// rather than the union sorted; the order is total up to identical genomes,
// so this is the sort of the union cut at n.
func survive(pop, children []individual, n int, next, dropped []individual) ([]individual, []individual) {
	slices.SortFunc(children, lessIndividual)
	i, j := 0, 0
	for len(next) < n {
		if j == len(children) || i < len(pop) && lessIndividual(pop[i], children[j]) <= 0 {
			next = append(next, pop[i])
			i++
		} else {
			next = append(next, children[j])
			j++
		}
	}
	dropped = append(dropped, pop[i:]...)
	return next, append(dropped, children[j:]...)
}

// startsAllNow reports whether the assignment's plan starts every Js job
// at t.
func (op *evoOp) startsAllNow(genes []int32) bool {
	var ranks []int32
	for p, order := range op.rankOrder {
		ranks = ranks[:0]
		for r, g := range order {
			if int(genes[g]) == p {
				ranks = append(ranks, int32(r))
			}
		}
		if _, err := op.plan(0, p, ranks); err != nil {
			return false
		}
		for _, st := range op.workers[0][p].Starts() {
			if st != op.now {
				return false
			}
		}
	}
	return true
}

// crossover is single-point crossover: two children exchanging the genes
// after a random cut, written over c1 and c2 (whose buffers are reused).
// The children's member-set keys are the parents' with the genes after the
// cut moved: where a and b differ at gene g, g leaves a's cluster and joins
// b's in c1, and the reverse in c2.
func (op *evoOp) crossover(rng *rand.Rand, a, b individual, c1, c2 *individual) {
	c1.genes, c2.genes = append(c1.genes[:0], a.genes...), append(c2.genes[:0], b.genes...)
	c1.keys, c2.keys = append(c1.keys[:0], a.keys...), append(c2.keys[:0], b.keys...)
	if len(a.genes) < 2 {
		return
	}
	cut := 1 + rng.IntN(len(a.genes)-1)
	copy(c1.genes[cut:], b.genes[cut:])
	copy(c2.genes[cut:], a.genes[cut:])
	for g := cut; g < len(a.genes); g++ {
		if x, y := a.genes[g], b.genes[g]; x != y {
			z1, z2 := op.z1[g], op.z2[g]
			c1.keys[x].h1 ^= z1
			c1.keys[x].h2 ^= z2
			c1.keys[y].h1 ^= z1
			c1.keys[y].h2 ^= z2
			c2.keys[x].h1 ^= z1
			c2.keys[x].h2 ^= z2
			c2.keys[y].h1 ^= z1
			c2.keys[y].h2 ^= z2
		}
	}
}

// move records gene g leaving cluster from for cluster to in keys (nil:
// no keys to keep).
func (op *evoOp) move(keys []setKey, g int, from, to int32) {
	if keys == nil {
		return
	}
	keys[from].h1 ^= op.z1[g]
	keys[from].h2 ^= op.z2[g]
	keys[to].h1 ^= op.z1[g]
	keys[to].h2 ^= op.z2[g]
}

// mutate applies, with equal probability, a reassignment (one gene to
// another feasible cluster) or a swap (SPEC §11: job j on cluster p; among
// the jobs on clusters in P_f,j, those feasible on p; exchange with one; if
// none, a reassignment). keys, unless nil, are kept up to date.
func (op *evoOp) mutate(rng *rand.Rand, genes []int32, keys []setKey) {
	g := rng.IntN(len(genes))
	if rng.IntN(2) == 1 {
		p := genes[g]
		P := len(op.feasOn) / len(op.feas)
		swappable := func(k int) bool {
			c := genes[k]
			return k != g && c != p && op.feasOn[g*P+int(c)] && op.feasOn[k*P+int(p)]
		}
		count := 0
		for k := range genes {
			if swappable(k) {
				count++
			}
		}
		if count > 0 {
			// The pick-th swappable gene, uniformly.
			pick := rng.IntN(count)
			for k := range genes {
				if swappable(k) {
					if pick == 0 {
						op.move(keys, g, genes[g], genes[k])
						op.move(keys, k, genes[k], genes[g])
						genes[g], genes[k] = genes[k], genes[g]
						return
					}
					pick--
				}
			}
		}
	}
	f := op.feas[g]
	if len(f) < 2 {
		return // feasible on one cluster only: nothing to change
	}
	// Uniform over the feasible clusters other than the current one: draw
	// among the first len−1 and, if that is the current one, take the last.
	c := f[rng.IntN(len(f)-1)]
	if int32(c) == genes[g] {
		c = f[len(f)-1]
	}
	op.move(keys, g, genes[g], int32(c))
	genes[g] = int32(c)
}

// pureMCT assigns every Js job, in (arrival, id) order, to the feasible
// cluster where the plan of the jobs assigned so far (plus the Jn jobs)
// finishes it earliest; ties to its user cluster, then the lowest index.
// It is the one implementation of pure MCT, for EVO's seed and for
// mct-all, on whichever what-if planner the seam provides (their starts
// are the same).
func (op *evoOp) pureMCT() ([]int32, error) {
	P := len(op.inst.Clusters)
	// rankOf[p][g]: gene g's rank position on cluster p.
	rankOf := make([][]int32, P)
	for p, order := range op.rankOrder {
		rankOf[p] = make([]int32, len(op.js))
		for r, g := range order {
			rankOf[p][g] = int32(r)
		}
	}
	members := make([][]int32, P) // rank positions, ascending
	var ranks []int32
	genes := make([]int32, len(op.js))
	for g, j := range op.js {
		user := op.inst.Jobs[j].Cluster
		best, bestF := -1, int64(math.MaxInt64)
		try := func(p int) error {
			if !op.feasOn[g*P+p] {
				return nil
			}
			rk := rankOf[p][g]
			k, _ := slices.BinarySearch(members[p], rk)
			ranks = append(append(append(ranks[:0], members[p][:k]...), rk), members[p][k:]...)
			if _, err := op.plan(0, p, ranks); err != nil {
				return err
			}
			if f := op.workers[0][p].Starts()[k] + op.terms[p][rk].rem; best < 0 || f < bestF {
				best, bestF = p, f
			}
			return nil
		}
		if err := userFirst(P, user, try); err != nil {
			return nil, err
		}
		if best < 0 {
			return nil, errors.New("evo: job feasible nowhere")
		}
		genes[g] = int32(best)
		rk := rankOf[best][g]
		k, _ := slices.BinarySearch(members[best], rk)
		members[best] = slices.Insert(members[best], k, rk)
	}
	return genes, nil
}

// userFirst calls try on the user cluster, then on every other cluster in
// index order (MCT's order of asking, so its ties go to the user cluster),
// and stops at the first error.
func userFirst(clusters, user int, try func(p int) error) error {
	if err := try(user); err != nil {
		return err
	}
	for p := range clusters {
		if p != user {
			if err := try(p); err != nil {
				return err
			}
		}
	}
	return nil
}

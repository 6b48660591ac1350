package simcore

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// EVOParams configure the evolutionary job-to-cluster allocator (SPEC §11).
type EVOParams struct {
	Population  int     // n ≥ 2 (default 100)
	Generations int     // ≥ 0 (default 200)
	Mutation    float64 // r ∈ [0, 1], probability that both children mutate (default 0.1)
	Stall       int     // stop after this many generations without improvement; 0 = off
	Budget      int     // at most this many individual evaluations per operation; 0 = off, else ≥ Population
	Init        string  // "seeded" (default): two individuals are the current and the pure-MCT assignment; "random"
	Seed        uint64  // the run seed; operation k draws from a generator seeded by (Seed, k)
	Workers     int     // goroutines planning clusters (≤ 1: serial); results do not depend on it
}

// DefaultEVOParams are SPEC §11's defaults.
func DefaultEVOParams() EVOParams {
	return EVOParams{Population: 100, Generations: 200, Mutation: 0.1, Init: "seeded", Seed: 1}
}

// Validate rejects out-of-range parameters.
func (p EVOParams) Validate() error {
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
// Without backfilling (and under greedy), with the best-fit or round-robin
// placer, the plans are built by levelPlanner (evo_plan.go), an exact
// re-formulation of Eq. 13 whose state after any prefix of the last plan
// is restored by an undo log; each generation's new member sets are
// planned in lexicographic rank order so that each one re-plans only from
// its first rank that differs from the previous one. Other modes use the
// list scheduler's what-if planner.
type EVO struct {
	Params EVOParams
}

// NewEVO returns the allocator with validated parameters.
func NewEVO(p EVOParams) (EVO, error) {
	if err := p.Validate(); err != nil {
		return EVO{}, err
	}
	return EVO{Params: p}, nil
}

// OpRecord is one scheduling operation of an EVO allocation (the data of
// the paper's Fig. 12). WallMS is the only field that is not reproducible.
type OpRecord struct {
	Time        int64   // t (s)
	Js          int     // |Js|
	Generations int     // generations run
	Evaluations int     // individuals evaluated
	MCTFitness  float64 // fitness at t of the current assignment (previous clusters, arrivals by MCT)
	EVOFitness  float64 // fitness at t of the chosen assignment
	WallMS      float64
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
func (c *clusterEval) add(job *Job, q, at, rem int64) {
	uq := float64(job.Priority) * float64(q)
	f := at + rem
	c.sumUQ += uq
	c.maxUQ = max(c.maxUQ, uq)
	c.sumJCT += float64(f - job.Arrival)
	c.maxQ = max(c.maxQ, float64(q))
	c.maxF = max(c.maxF, f)
	c.work += float64(job.GPUs) * float64(rem)
	c.tard += float64(Tardiness(job.Deadline, f))
	c.jobs++
}

// terms is c as the objective's terms at t (simcore.ObjectiveTerms).
func (c clusterEval) terms() ObjectiveTerms {
	return ObjectiveTerms{SumUQ: c.sumUQ, MaxUQ: c.maxUQ, SumJCT: c.sumJCT, MaxQ: c.maxQ, MaxF: c.maxF, Work: c.work, Tard: c.tard, Jobs: c.jobs}
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
	s       *sim
	params  EVOParams
	js      []int   // Js, (arrival, id) order
	feas    [][]int // feasible clusters per gene
	feasOn  []bool  // feasOn[g·P + p]: gene g may go to cluster p
	z1, z2  []uint64
	base    []clusterEval // the Jn jobs' contribution per cluster
	cache   evalCache
	workers []*whatIf
	// levels[w][p]: worker w's level planner of cluster p, when the
	// what-ifs may use it (levelPlanning); nil otherwise.
	levels [][]*levelPlanner
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

// Allocate implements Allocator.
func (e EVO) Allocate(a *Allocation) error {
	s := a.s
	start := time.Now()
	// The current assignment: previous clusters, arrivals by MCT.
	if err := (MCT{}).Allocate(a); err != nil {
		return err
	}
	js := a.Schedulable()
	if len(js) == 0 || len(s.inst.Clusters) == 1 {
		return nil
	}
	op := newEVOOp(s, e.Params, js)
	current := make([]int32, len(js))
	for g, j := range js {
		current[g] = int32(s.assigned[j])
	}
	best, gens, mctFit, err := op.run(current)
	if err != nil {
		return err
	}
	for g, j := range js {
		a.Assign(j, int(best.genes[g]))
	}
	if s.opts.RecordOps {
		s.opLog = append(s.opLog, OpRecord{Time: s.now, Js: len(js), Generations: gens, Evaluations: op.evals,
			MCTFitness: mctFit, EVOFitness: best.fit, WallMS: float64(time.Since(start).Microseconds()) / 1000})
	}
	return nil
}

func newEVOOp(s *sim, p EVOParams, js []int) *evoOp {
	op := &evoOp{s: s, params: p, js: slices.Clone(js)}
	P := len(s.inst.Clusters)
	op.feas = make([][]int, len(js))
	op.z1 = make([]uint64, len(js))
	op.z2 = make([]uint64, len(js))
	for g, j := range js {
		for q := range P {
			ok := s.feasible(j, q)
			op.feasOn = append(op.feasOn, ok)
			if ok {
				op.feas[g] = append(op.feas[g], q)
			}
		}
		id := uint64(s.inst.Jobs[j].ID)
		op.z1[g] = splitmix(id ^ 0x9e3779b97f4a7c15)
		op.z2[g] = splitmix(id ^ 0xd1b54a32d192ed03)
	}
	for _, c := range s.inst.Clusters {
		op.cap += float64(c.GPUs())
	}
	// The Jn jobs (fixed on their clusters) contribute the same to every
	// individual.
	op.base = make([]clusterEval, P)
	for _, j := range s.active {
		if !s.fixed[j] {
			continue
		}
		p := s.assigned[j]
		op.base[p].add(&s.inst.Jobs[j], s.queued(j), s.now, s.remOn(j, p))
	}
	op.workers = s.whatIfs(max(1, p.Workers))
	w := op.workers[0]
	for q := range P {
		var order []int
		ws := w.sims[q]
		for g, j := range op.js {
			if s.feasible(j, q) {
				w.key(q, j)
				order = append(order, g)
			}
		}
		slices.SortFunc(order, func(a, b int) int {
			ja, jb := op.js[a], op.js[b]
			if ws.rankLess(ja, jb) {
				return -1
			}
			if ws.rankLess(jb, ja) {
				return 1
			}
			return 0
		})
		op.rankOrder = append(op.rankOrder, order)
		genes := make([]int32, len(order))
		for k, g := range order {
			genes[k] = int32(g)
		}
		op.rankGenes = append(op.rankGenes, genes)
	}
	if levelPlanning(s) {
		for range op.workers {
			op.levels = append(op.levels, newLevelPlanners(s, op.rankOrder, op.js))
		}
	}
	return op
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
	P := len(op.s.inst.Clusters)
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
	op.cache.reserve(len(pop) * len(op.s.inst.Clusters))
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
	p := t.key.cluster
	if op.levels != nil {
		return op.levels[w][p].plan(op.s, p, t.ranks)
	}
	members := make([]int, len(t.ranks))
	for k, r := range t.ranks {
		members[k] = op.js[op.rankOrder[p][r]]
	}
	return op.workers[w].plan(p, members)
}

// fitness combines the clusters' contributions into the objective at t
// (SPEC §11), in hours.
func (op *evoOp) fitness(ks []setKey) float64 {
	var tot clusterEval
	tot.maxF = op.s.now
	for p, k := range ks {
		tot.merge(op.base[p])
		tot.merge(op.cache.get(k))
	}
	return op.s.opts.Objective.AtT(tot.terms(), op.s.now, op.cap)
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
	s := op.s
	rng := rand.New(rand.NewPCG(p.Seed, uint64(s.ops)))
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
		pure := op.pureMCT
		if op.levels != nil {
			pure = op.mctLevel
		}
		mct, err := pure()
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
	startsAllNow := op.startsAllNow
	if op.levels != nil {
		startsAllNow = op.startsAllNowLevel
	}
	if p.Init == "seeded" && s.dur == nil && startsAllNow(cur.genes) {
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
		return individual{genes: make([]int32, len(op.js)), keys: make([]setKey, len(op.s.inst.Clusters))}
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
		if err := s.ctx.Err(); err != nil {
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
	w := op.workers[0]
	for p := range op.s.inst.Clusters {
		var members []int
		for g, c := range genes {
			if int(c) == p {
				members = append(members, op.js[g])
			}
		}
		if _, err := w.plan(p, members); err != nil {
			return false
		}
		for _, j := range members {
			if w.sims[p].planStart[j] != op.s.now {
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
func (op *evoOp) pureMCT() ([]int32, error) {
	s := op.s
	w := op.workers[0]
	P := len(s.inst.Clusters)
	members := make([][]int, P)
	genes := make([]int32, len(op.js))
	for g, j := range op.js {
		user := s.inst.Jobs[j].Cluster
		best, bestF := -1, int64(math.MaxInt64)
		try := func(p int) error {
			if !s.feasible(j, p) {
				return nil
			}
			if _, err := w.plan(p, append(members[p], j)); err != nil {
				return err
			}
			if f := w.sims[p].planStart[j] + s.remOn(j, p); best < 0 || f < bestF {
				best, bestF = p, f
			}
			return nil
		}
		if err := userFirst(P, user, try); err != nil {
			return nil, err
		}
		if best < 0 {
			return nil, errors.New("simcore: evo: job feasible nowhere")
		}
		genes[g] = int32(best)
		members[best] = append(members[best], j)
	}
	return genes, nil
}

// whatIf plans clusters for hypothetical member sets without touching the
// simulation. Each cluster has its own shallow copy of the simulation with
// its own plan, keys and planner state (so the last plan built on a
// cluster can be extended), sharing the read-only job state and the
// clusters' persistent fixed-job state. A simulation keeps its what-if
// planners across operations and refreshes them at each.
type whatIf struct {
	sims  []*sim
	pls   []*planner
	keyAt [][]int // per cluster and job: the operation its key was computed at
}

func newWhatIf(s *sim) *whatIf {
	w := &whatIf{}
	n := len(s.inst.Jobs)
	for p, c := range s.inst.Clusters {
		ws := &sim{planStart: make([]int64, n), planPlace: make([][]Slot, n), key: make([]float64, n)}
		w.sims = append(w.sims, ws)
		w.pls = append(w.pls, newPlanner(ws, p, c))
		w.keyAt = append(w.keyAt, make([]int, n))
	}
	return w
}

// refresh loads the simulation's current state.
func (w *whatIf) refresh(s *sim) {
	for p, ws := range w.sims {
		start, place, key := ws.planStart, ws.planPlace, ws.key
		*ws = *s
		ws.planStart, ws.planPlace, ws.key = start, place, key
		if ws.opts.Backfill == BackfillGreedy {
			ws.opts.Backfill = BackfillNone
		}
		pl, real := w.pls[p], s.clusters[p]
		pl.fixed, pl.fixedUse, pl.fixedRels = real.fixed, real.fixedUse, real.fixedRels
		pl.built, pl.valid, pl.completed = false, false, false
	}
}

// whatIfs returns k refreshed what-if planners, kept across operations.
func (s *sim) whatIfs(k int) []*whatIf {
	for len(s.evoPool) < k {
		s.evoPool = append(s.evoPool, newWhatIf(s))
	}
	for _, w := range s.evoPool[:k] {
		w.refresh(s)
	}
	return s.evoPool[:k]
}

// plan builds the plan of cluster p holding the Js jobs members (and its
// Jn jobs) and returns its contribution to the fitness at t.
func (w *whatIf) plan(p int, members []int) (clusterEval, error) {
	s := w.sims[p]
	pl := w.pls[p]
	for _, j := range members {
		w.key(p, j)
	}
	// The last plan built on pl is extended rather than rebuilt when its
	// ranked jobs are a prefix of the new ranking (planner.extendable):
	// under Eq. 13 a job's plan depends only on the jobs ranked before it.
	pl.jobs = append(pl.jobs[:0], members...)
	pl.valid = false
	if err := pl.plan(); err != nil {
		return clusterEval{}, err
	}
	var c clusterEval
	c.maxF = s.now
	for _, j := range members {
		job := &s.inst.Jobs[j]
		st := s.planStart[j]
		if st == never {
			return clusterEval{}, fmt.Errorf("simcore: evo: job %d cannot be placed on cluster %d", job.ID, p)
		}
		c.add(job, s.queued(j)+st-s.now, st, s.remOn(j, p))
	}
	return c, nil
}

// key sets job j's ranking key on cluster p, once per operation.
func (w *whatIf) key(p, j int) {
	s := w.sims[p]
	if w.keyAt[p][j] != s.ops {
		s.key[j] = s.priority(j, p)
		w.keyAt[p][j] = s.ops
	}
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

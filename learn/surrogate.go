package learn

import (
	"cmp"
	"maps"
	"slices"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/simcore"
)

// The kNN fitness surrogate (gp.surrogate: knn).
//
// Phenotypic characterisation (Hildebrandt and Branke, Evolutionary
// Computation 23(3), 2015): a fixed sample of decision situations — the
// decisions of the SRSF scheduler on the training instances that
// gp.dedup: behaviour samples too (behaviour.go) — and, for each, the
// rank that the reference ranking SRSF gives to the job the rule ranks
// first. A rule's characterisation is that vector of ranks; the distance
// of two rules is the squared Euclidean distance of their vectors (integer
// arithmetic, so exact and order-free).
//
// A two-tree individual (gp.learn: [routing, ranking]) is characterised by
// its ranking tree's vector and its routing tree's canonical hash: there
// is no sample of routing decisions (the rule allocator evaluates the
// routing tree inside simcore/rule), so distance is lexicographic — first
// whether the routing trees differ (canonical hash), then the ranking
// vectors' distance. An offspring with its parent's routing tree (a
// crossover or mutation of the ranking tree) takes its neighbours among
// individuals routing alike; a new routing tree is predicted from the
// rankings alone.
//
// The model is an archive of fully evaluated individuals: every member
// simulated in the last generations (parents re-scored on each
// generation's subset, offspring once), newest evaluation per individual,
// at most surrogateArchive × gp.population entries (oldest dropped). An
// offspring's predicted fitness is the mean fitness of its k nearest
// archive entries (ties by archive position, oldest first). Archive
// fitness comes from different training subsets, but every term is
// normalised by SRSF on its own instance, so values are on one scale.
//
// With early stopping an offspring proved unable to survive has no exact
// fitness; so that a run's results never depend on gp.early_stop, the
// archive records every offspring above the prune threshold (the worst
// parent's fitness) at that threshold, simulated in full or not — a lower
// bound that still marks the region as bad. Under nsga2 an offspring
// dominated by n parents (the early-stop test) is left out of the archive.
//
// Selection and elitism see only simulated fitness: the surrogate only
// chooses which n of the gp.surrogate_pool × n bred offspring are
// simulated.

// surrogateArchive is the archive bound in population sizes: two
// generations of parents and offspring.
const surrogateArchive = 4

// surrogateEntry is one fully evaluated individual of the archive.
type surrogateEntry struct {
	tree, routing *expr.Tree
	hash          uint64
	routingHash   uint64    // 0 for one tree
	vec           []int32   // the characterisation
	value         float64   // fitness (scalar selection)
	objs          []float64 // objective vector (nsga2)
}

// surrogate is the model of one run.
type surrogate struct {
	k, pool int
	// freeRepeats (gp.surrogate_repeats: free): offspring repeating a
	// parent are kept first, not last (screen).
	freeRepeats bool
	capacity    int
	seconds     bool
	decisions   []decision
	refRank     [][]int32 // refRank[d][i]: SRSF's rank of decision d's job i
	archive     []surrogateEntry
}

// newSurrogate builds the model over the decision sample ds.
func newSurrogate(ds []decision, k, pool, population int, seconds, freeRepeats bool) *surrogate {
	s := &surrogate{k: k, pool: pool, freeRepeats: freeRepeats, capacity: surrogateArchive * population, seconds: seconds, decisions: ds}
	var buf []int32
	var keys []float64
	for _, d := range ds {
		buf, keys = order(simcore.SRSF{}, d, buf, keys)
		rank := make([]int32, len(d))
		for pos, i := range buf {
			rank[i] = int32(pos)
		}
		s.refRank = append(s.refRank, rank)
	}
	return s
}

// characterise is the rank vector of ranking tree t: per decision,
// SRSF's rank of the job t puts first.
func (s *surrogate) characterise(t *expr.Tree) []int32 {
	r := NewFormulaRanking(t, s.seconds)
	vec := make([]int32, len(s.decisions))
	for i, d := range s.decisions {
		vec[i] = s.refRank[i][first(r, d)]
	}
	return vec
}

// first is the position of the job ranking r puts first on d: order's
// first element (the least in its total order), by one linear scan.
func first(r simcore.Ranking, d decision) int {
	best, bestKey := 0, r.Priority(d[0])
	for i := 1; i < len(d); i++ {
		k := r.Priority(d[i])
		if before(k, bestKey, &d[i], &d[best]) {
			best, bestKey = i, k
		}
	}
	return best
}

// before reports whether a job with key ka comes before one with key kb
// in order's order: the lower key (NaN after every number), then the
// earlier arrival, then the lower id.
func before(ka, kb float64, a, b *simcore.JobView) bool {
	if c := compareFloat(ka, kb); c != 0 {
		return c < 0
	}
	if a.Arrival != b.Arrival {
		return a.Arrival < b.Arrival
	}
	return a.ID < b.ID
}

// entry is the archive entry of c (its characterisation from known, keyed
// by individual hash, when there).
func (s *surrogate) entry(c scored, known map[uint64][]int32) surrogateEntry {
	e := surrogateEntry{tree: c.tree, routing: c.routing, hash: c.hash}
	if c.routing != nil {
		e.routingHash = c.routing.Hash()
	}
	if v, ok := known[c.hash]; ok {
		e.vec = v
	} else {
		e.vec = s.characterise(c.tree)
	}
	return e
}

// vectors maps every archive member's hash to its characterisation.
func (s *surrogate) vectors() map[uint64][]int32 {
	m := make(map[uint64][]int32, len(s.archive))
	for _, e := range s.archive {
		m[e.hash] = e.vec
	}
	return m
}

// distance of two vectors: squared Euclidean.
func distance(a, b []int32) int64 {
	var d int64
	for i := range a {
		x := int64(a[i]) - int64(b[i])
		d += x * x
	}
	return d
}

// neighbour is an archive position with its distance to a query.
type neighbour struct {
	routingDiffers bool
	dist           int64
	pos            int
}

func compareNeighbours(a, b neighbour) int {
	if a.routingDiffers != b.routingDiffers {
		if a.routingDiffers {
			return 1
		}
		return -1
	}
	return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.pos, b.pos))
}

// nearest returns the archive positions of q's min(k, |archive|) nearest
// entries, nearest first.
func (s *surrogate) nearest(q surrogateEntry) []neighbour {
	best := make([]neighbour, 0, s.k+1)
	for pos, e := range s.archive {
		nb := neighbour{routingDiffers: e.routingHash != q.routingHash, dist: distance(q.vec, e.vec), pos: pos}
		if len(best) == s.k && compareNeighbours(nb, best[len(best)-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(best, nb, compareNeighbours)
		best = slices.Insert(best, i, nb)
		if len(best) > s.k {
			best = best[:s.k]
		}
	}
	return best
}

// predict is the mean fitness of q's nearest entries.
func (s *surrogate) predict(q surrogateEntry) float64 {
	nbs := s.nearest(q)
	sum := 0.0
	for _, nb := range nbs {
		sum += s.archive[nb.pos].value
	}
	return sum / float64(len(nbs))
}

// predictObjectives is the component-wise mean objective vector of q's
// nearest entries.
func (s *surrogate) predictObjectives(q surrogateEntry, dims int) []float64 {
	nbs := s.nearest(q)
	v := make([]float64, dims)
	for _, nb := range nbs {
		for i, x := range s.archive[nb.pos].objs {
			v[i] += x
		}
	}
	for i := range v {
		v[i] /= float64(len(nbs))
	}
	return v
}

// screen keeps n of the bred pool for simulation, in bred order. An
// offspring whose hash is a parent's or an earlier pool member's would
// only repeat a known evaluation. By default (gp.surrogate_repeats: last)
// such duplicates come after every new individual, so that the n kept
// are as many new ones as the pool holds, each a simulation. With
// freeRepeats (gp.surrogate_repeats: free) the repeats of a parent among
// the first n bred are kept first — as many as a run without the
// surrogate breeds, drawn the same way; the parents are re-scored on the
// generation's subset, so they are cache hits and cost no simulation —
// and only the slots left go to new individuals, then to the other
// duplicates. Keeping every parent repeat of the whole pool instead feeds
// back: the pool holds twice the repeats, the next population more
// clones, and in the unit test's run the population collapsed to one
// individual within two generations; counted over the first n, clones
// enter at the rate they do without the surrogate. (A repeat of a pool
// member is free only if that member is kept, so those stay last under
// both rules.) Scalar selection: the rest by predicted fitness ascending
// (NaN last), ties in bred order. nsga2 (objs non-nil: the objective
// count and exact, a function of the tree, for those it can compute): the
// n NSGA-II would keep of the predicted vectors — non-dominated sorting,
// then crowding within the last front taken (pareto.Survivors), ties by
// hash. With an empty archive the first n are kept.
func (s *surrogate) screen(pool, parents []scored, n int, nsga *objectiveShape) []scored {
	keep := s.screenIndex(pool, parents, n, nsga)
	out := make([]scored, len(keep))
	for j, i := range keep {
		out[j] = pool[i]
	}
	return out
}

// screenIndex is screen's choice as indices into pool, ascending.
func (s *surrogate) screenIndex(pool, parents []scored, n int, nsga *objectiveShape) []int {
	if len(pool) <= n || len(s.archive) == 0 {
		keep := make([]int, min(n, len(pool)))
		for i := range keep {
			keep[i] = i
		}
		return keep
	}
	parent := make(map[uint64]bool, len(parents))
	for _, p := range parents {
		parent[p.hash] = true
	}
	seen := maps.Clone(parent)
	known := s.vectors()
	var fresh, dup, free []int
	for i, c := range pool {
		switch {
		case s.freeRepeats && i < n && parent[c.hash]:
			free = append(free, i)
		case seen[c.hash]:
			dup = append(dup, i)
		default:
			fresh = append(fresh, i)
		}
		seen[c.hash] = true
	}
	keep := slices.Clone(free[:min(n, len(free))])
	room := n - len(keep) // the slots left for new individuals and pool repeats
	if room == 0 {
		fresh = nil
	}
	if nsga == nil {
		pred := make([]float64, len(pool))
		for _, i := range fresh {
			pred[i] = s.predict(s.entry(pool[i], known))
		}
		slices.SortStableFunc(fresh, func(a, b int) int { return compareFloat(pred[a], pred[b]) })
		keep = append(keep, fresh[:min(room, len(fresh))]...)
	} else if len(fresh) > 0 {
		pts := make([][]float64, len(fresh))
		tie := make([]uint64, len(fresh))
		for j, i := range fresh {
			pts[j] = s.predictObjectives(s.entry(pool[i], known), nsga.dims)
			if nsga.exact != nil {
				nsga.exact(pool[i], pts[j])
			}
			tie[j] = pool[i].hash
		}
		for _, j := range pareto.Survivors(pts, tie, min(room, len(fresh))) {
			keep = append(keep, fresh[j])
		}
	}
	keep = append(keep, dup[:n-len(keep)]...)
	slices.Sort(keep)
	return keep
}

// objectiveShape describes nsga2's objective vectors to the screen: their
// length, and a function that overwrites the components computable
// without simulation (size) with their exact values.
type objectiveShape struct {
	dims  int
	exact func(c scored, v []float64)
}

// record adds this generation's fully evaluated members to the archive:
// entries (already filtered and valued by the caller), parents then
// offspring. A member evaluated again replaces its older entry; the
// archive then drops its oldest entries beyond capacity.
func (s *surrogate) record(entries []surrogateEntry) {
	fresh := make(map[uint64]bool, len(entries))
	var add []surrogateEntry
	for _, e := range entries {
		if !fresh[e.hash] {
			fresh[e.hash] = true
			add = append(add, e)
		}
	}
	kept := s.archive[:0:0]
	for _, e := range s.archive {
		if !fresh[e.hash] {
			kept = append(kept, e)
		}
	}
	kept = append(kept, add...)
	if over := len(kept) - s.capacity; over > 0 {
		kept = kept[over:]
	}
	s.archive = kept
}

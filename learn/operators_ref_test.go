package learn

import (
	"cmp"
	"fmt"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evogp/evogp/expr"
)

// The breeding and survival of main 3f1d7e5, before selection, survival
// and variation became operators the loop receives: the oracle of
// TestOperatorsMatchReference.

// breedWith returns n offspring of pop (whose fitness is set): repeatedly
// two distinct parents chosen by parents (drawing from mr; Tournament:
// eaopt.SelTournament); with probability crossover, children c1 =
// Crossover(p1, p2) and c2 = Crossover(p2, p1), otherwise copies of the
// parents; with probability r both children get a subtree mutation (one
// draw per pair, as in Algorithm 3 lines 8–10). Variation draws come from
// master. An odd n drops the last c2.
func refBreedWith(pop []scored, n int, v variation, parents ParentSelection, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	out := make([]scored, 0, n+1)
	for len(out) < n {
		i1, i2, err := parents.Pair(scoredMembers(pop), mr)
		if err != nil {
			return nil, err
		}
		s1, s2 := pop[i1], pop[i2]
		if s1.routing != nil {
			c1, c2 := refVaryPair(s1, s2, v, master)
			out = append(out, c1, c2)
			continue
		}
		p1, p2 := s1.tree, s2.tree
		c1, c2 := p1, p2 // trees are immutable values: sharing is safe
		if master.Float64() < v.crossover {
			c1 = expr.Crossover(master, p1, p2, v.vary)
			c2 = expr.Crossover(master, p2, p1, v.vary)
		}
		if master.Float64() < v.mutation {
			c1 = expr.SubtreeMutation(master, c1, v.vary)
			c2 = expr.SubtreeMutation(master, c2, v.vary)
		}
		out = append(out,
			scored{tree: c1, hash: c1.Hash(), parents: [2]uint64{s1.hash, s2.hash}},
			scored{tree: c2, hash: c2.Hash(), parents: [2]uint64{s2.hash, s1.hash}})
	}
	return out[:n], nil
}

// varyPair breeds two children of two-tree parents (SPEC §16): with
// probability crossover, one tree — routing or ranking, uniformly, one
// draw for the pair — is crossed over (c1's from p1 ⊗ p2, c2's from
// p2 ⊗ p1) and the other is copied; with probability r one tree (a fresh
// uniform draw) of both children gets a subtree mutation; with probability
// gp.tree_swap the children then exchange their routing trees. Every draw
// comes from master, in this order, so a run is deterministic.
func refVaryPair(s1, s2 scored, v variation, master *rand.Rand) (scored, scored) {
	r1, f1, r2, f2 := s1.routing, s1.tree, s2.routing, s2.tree
	if master.Float64() < v.crossover {
		if master.IntN(2) == 0 {
			r1, r2 = expr.Crossover(master, s1.routing, s2.routing, v.routingVary), expr.Crossover(master, s2.routing, s1.routing, v.routingVary)
		} else {
			f1, f2 = expr.Crossover(master, s1.tree, s2.tree, v.vary), expr.Crossover(master, s2.tree, s1.tree, v.vary)
		}
	}
	if master.Float64() < v.mutation {
		if master.IntN(2) == 0 {
			r1, r2 = expr.SubtreeMutation(master, r1, v.routingVary), expr.SubtreeMutation(master, r2, v.routingVary)
		} else {
			f1, f2 = expr.SubtreeMutation(master, f1, v.vary), expr.SubtreeMutation(master, f2, v.vary)
		}
	}
	if v.treeSwap > 0 && master.Float64() < v.treeSwap {
		r1, r2 = r2, r1
	}
	c1 := newScored(r1, f1)
	c1.parents = [2]uint64{s1.hash, s2.hash}
	c2 := newScored(r2, f2)
	c2.parents = [2]uint64{s2.hash, s1.hash}
	return c1, c2
}

// survive keeps the n best of all (μ + λ), sorting all in place.
func refSurvive(all []scored, n int) []scored {
	slices.SortStableFunc(all, compareScored)
	return slices.Clone(all[:n])
}

// surviveDistinct keeps n members of all (μ + λ) with behavioural
// de-duplication: in the survival order, the first member of each
// phenotype is kept; if fewer than n phenotypes exist, the best of the
// remaining members (in the same order) fill the population. The result is
// in survival order (best first).
func refSurviveDistinct(all []scored, n int) []scored {
	return refSurviveDistinctBy(all, n, compareScored)
}

// surviveDistinctBy is surviveDistinct in the survival order of compare.
func refSurviveDistinctBy(all []scored, n int, compare func(a, b scored) int) []scored {
	slices.SortStableFunc(all, compare)
	seen := make(map[uint64]bool, len(all))
	out := make([]scored, 0, n)
	var rest []scored
	for _, c := range all {
		if !seen[c.pheno] && len(out) < n {
			seen[c.pheno] = true
			out = append(out, c)
		} else {
			rest = append(rest, c)
		}
	}
	out = append(out, rest[:n-len(out)]...)
	slices.SortStableFunc(out, compare)
	return out
}

// nsga2Selection is NSGA-II (Deb et al. 2002; SPEC §17) on the members'
// objective vectors (scored.objs): parents by binary tournament on (rank,
// crowding distance), survivors by non-dominated sorting with crowding
// distance from parents ∪ offspring.
type refNSGA2 struct{}

// breed runs the scalar breeding (same draws, same variation) with a
// tournament of 2 on each member's position in the NSGA-II order — rank
// ascending, crowding descending, then canonical hash, then index — so
// that the lower position, the better (rank, crowding), wins.
func (refNSGA2) breed(pop []scored, n int, v variation, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	order := nsgaOrder(scoredMembers(pop))
	keyed := slices.Clone(pop)
	for pos, i := range order {
		keyed[i].fitness = float64(pos)
	}
	return refBreedWith(keyed, n, v, Tournament{K: 2}, master, mr)
}

func (refNSGA2) survive(all []scored, n int, distinct bool) []scored {
	slices.SortStableFunc(all, compareScored)
	pool, rest := all, []scored(nil)
	if distinct {
		// The first member (in compareScored order) of each phenotype
		// competes; the others fill only if fewer than n phenotypes exist.
		seen := map[uint64]bool{}
		pool = nil
		for _, c := range all {
			if !seen[c.pheno] {
				seen[c.pheno] = true
				pool = append(pool, c)
			} else {
				rest = append(rest, c)
			}
		}
	}
	var out []scored
	for _, i := range nsgaSurvivors(scoredMembers(pool), n) {
		out = append(out, pool[i])
	}
	if len(out) < n {
		for _, i := range nsgaSurvivors(scoredMembers(rest), n-len(out)) {
			out = append(out, rest[i])
		}
	}
	slices.SortStableFunc(out, compareScored)
	return out
}

func refParsimonySurvive(all []scored, n int, distinct bool) []scored {
	if distinct {
		return refSurviveDistinctBy(all, n, compareParsimony)
	}
	slices.SortStableFunc(all, compareParsimony)
	return slices.Clone(all[:n])
}

func compareParsimony(a, b scored) int {
	return cmp.Or(compareFloat(a.fitness, b.fitness), cmp.Compare(a.size(), b.size()), cmp.Compare(a.hash, b.hash))
}

// randomMembers is a population with many ties: fitness and objectives
// from a few values, a few phenotypes, repeated trees (the same tree
// object and equal trees built apart), one- or two-tree genomes.
func randomMembers(t *testing.T, rng *rand.Rand, n int, twoTrees bool) []scored {
	t.Helper()
	ranks := expr.RampedHalfAndHalf(rng, n, expr.GenSettings{MinDepth: 1, MaxDepth: 4})
	var routes []*expr.Tree
	if twoTrees {
		routes = expr.RampedHalfAndHalf(rng, n, expr.GenSettings{MinDepth: 1, MaxDepth: 4, Terminals: routingTestTerms(t)})
	}
	pop := make([]scored, n)
	for i := range pop {
		if i > 0 && rng.IntN(4) == 0 { // a repeat of an earlier member
			j := rng.IntN(i)
			ranks[i] = ranks[j]
			if rng.IntN(2) == 0 {
				ranks[i] = expr.MustParse(ranks[j].String())
			}
			if routes != nil {
				routes[i] = routes[j]
			}
		}
		var rt *expr.Tree
		if routes != nil {
			rt = routes[i]
		}
		c := newScored(rt, ranks[i])
		c.fitness = float64(rng.IntN(4))
		if rng.IntN(20) == 0 {
			c.fitness = nan()
		}
		c.objs = []float64{float64(rng.IntN(3)), float64(rng.IntN(3))}
		c.pheno = uint64(rng.IntN(5))
		c.cases = []float64{c.fitness}
		pop[i] = c
	}
	return pop
}

func nan() float64 { var z float64; return z / z }

// sameMembers reports whether two member lists are the same members in the
// same order (same tree objects, hashes and bred-from hashes).
func sameMembers(a, b []scored) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d members, reference %d", len(b), len(a))
	}
	for i := range a {
		if a[i].tree != b[i].tree || a[i].routing != b[i].routing || a[i].hash != b[i].hash || a[i].parents != b[i].parents {
			return fmt.Errorf("member %d: %s, reference %s", i, individualString(b[i].routing, b[i].tree), individualString(a[i].routing, a[i].tree))
		}
	}
	return nil
}

// sameTrees is sameMembers for bred children (new tree objects): equal
// trees instead of the same objects.
func sameTrees(a, b []scored) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d children, reference %d", len(b), len(a))
	}
	for i := range a {
		if individualString(a[i].routing, a[i].tree) != individualString(b[i].routing, b[i].tree) || a[i].hash != b[i].hash || a[i].parents != b[i].parents {
			return fmt.Errorf("child %d: %s, reference %s", i, individualString(b[i].routing, b[i].tree), individualString(a[i].routing, a[i].tree))
		}
	}
	return nil
}

// survivors applies a Survival to the loop's members.
func survivors(s Survival, all []scored, n int) []scored {
	var out []scored
	for _, i := range s.Survive(scoredMembers(all), n) {
		out = append(out, all[i])
	}
	return out
}

// breed is the paper's breeding: k-tournament parents, the run's
// variation operators.
func breed(pop []scored, n int, v variation, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	return breedWith(pop, n, Tournament{K: v.tournament}, v.operators(), master, mr)
}

// varyPair applies the run's variation operators to two parents.
func varyPair(s1, s2 scored, v variation, master *rand.Rand) (scored, scored) {
	a, b := Genome{s1.routing, s1.tree}, Genome{s2.routing, s2.tree}
	for _, op := range v.operators() {
		a, b = op.Vary(master, a, b)
	}
	return newScored(a.Routing, a.Ranking), newScored(b.Routing, b.Ranking)
}

// The operators the loop receives choose exactly what main's hard-wired
// breeding and survival chose — the same children from the same draws
// (leaving the streams in the same state), the same survivors in the same
// order — on random populations full of ties, for every selection method
// and with and without behavioural de-duplication. This is the unit-level
// half of the refactor's byte-identity (the other half is the identity
// harness on whole runs).
func TestOperatorsMatchReference(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 77))
		two := seed%3 == 0
		n := 2 + rng.IntN(12)
		pop := randomMembers(t, rng, n, two)
		v := variation{tournament: 1 + rng.IntN(5), crossover: 0.7, mutation: 0.4, vary: expr.VarSettings{MaxDepth: 6, InternalProb: 0.9}}
		if two {
			v.routingVary = expr.VarSettings{MaxDepth: 6, InternalProb: 0.9, Terminals: routingTestTerms(t)}
			v.treeSwap = 0.3
		}
		// Breeding: k-tournament and NSGA-II's crowded tournament.
		for _, c := range []struct {
			name string
			ref  func(master *rand.Rand, mr *mrand.Rand) ([]scored, error)
			got  func(master *rand.Rand, mr *mrand.Rand) ([]scored, error)
		}{
			{"tournament", func(m *rand.Rand, mr *mrand.Rand) ([]scored, error) {
				return refBreedWith(pop, 2*n+1, v, Tournament{K: v.tournament}, m, mr)
			}, func(m *rand.Rand, mr *mrand.Rand) ([]scored, error) {
				return breedWith(pop, 2*n+1, Tournament{K: v.tournament}, v.operators(), m, mr)
			}},
			{"nsga2", func(m *rand.Rand, mr *mrand.Rand) ([]scored, error) { return refNSGA2{}.breed(pop, 2*n+1, v, m, mr) },
				func(m *rand.Rand, mr *mrand.Rand) ([]scored, error) {
					return breedWith(pop, 2*n+1, CrowdedTournament{}, v.operators(), m, mr)
				}},
		} {
			m1, m2 := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
			r1, r2 := mrand.New(mrand.NewSource(int64(seed))), mrand.New(mrand.NewSource(int64(seed)))
			want, err1 := c.ref(m1, r1)
			got, err2 := c.got(m2, r2)
			if err1 != nil || err2 != nil {
				t.Fatalf("seed %d %s: %v, %v", seed, c.name, err1, err2)
			}
			if err := sameTrees(want, got); err != nil {
				t.Fatalf("seed %d %s breeding: %v", seed, c.name, err)
			}
			if m1.Uint64() != m2.Uint64() || r1.Int63() != r2.Int63() {
				t.Fatalf("seed %d %s: the streams were drawn differently", seed, c.name)
			}
		}
		// Survival: survivors and their order.
		k := 1 + rng.IntN(n)
		clone := func() []scored { return slices.Clone(pop) }
		for _, c := range []struct {
			name string
			ref  func(all []scored) []scored
			got  Survival
		}{
			{"mu+lambda", func(all []scored) []scored { return refSurvive(all, k) }, MuPlusLambda{}},
			{"mu+lambda dedup", func(all []scored) []scored { return refSurviveDistinct(all, k) }, Dedup{Inner: MuPlusLambda{}}},
			{"parsimony", func(all []scored) []scored { return refParsimonySurvive(all, k, false) }, MuPlusLambda{ByParsimony}},
			{"parsimony dedup", func(all []scored) []scored { return refParsimonySurvive(all, k, true) }, Dedup{Inner: MuPlusLambda{ByParsimony}, Order: ByParsimony}},
			{"nsga2", func(all []scored) []scored { return refNSGA2{}.survive(all, k, false) }, NSGA2{}},
			{"nsga2 dedup", func(all []scored) []scored { return refNSGA2{}.survive(all, k, true) }, Dedup{Inner: NSGA2{}, Order: ByFitness}},
		} {
			refAll := clone()
			want := c.ref(refAll)
			all := clone()
			got := survivors(c.got, all, k)
			if err := sameMembers(want, got); err != nil {
				t.Fatalf("seed %d %s survival of %d of %d: %v", seed, c.name, k, n, err)
			}
			if err := sameMembers(pop, all); err != nil {
				t.Fatalf("seed %d %s: survival changed the loop's members: %v", seed, c.name, err)
			}
			if c.name == "nsga2" || c.name == "nsga2 dedup" {
				// The archive hook reads all in the order main's NSGA-II
				// survival left it: a stable sort by compareScored.
				slices.SortStableFunc(all, compareScored)
				if err := sameMembers(refAll, all); err != nil {
					t.Fatalf("seed %d %s: the members' order after survival: %v", seed, c.name, err)
				}
			}
		}
	}
}

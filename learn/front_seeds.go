package learn

import "github.com/evogp/evogp/expr"

// seedCandidates are gp.seed_formulas as front candidates: ranking seed i
// (paired with routing seed i in a two-tree run, and left out where there
// is none) unless an individual of cands already is that pair. The final
// front is formed from the archive, the retired pool and these, so a
// seeded baseline ranking (g * d is SRSF's) that the run was given is
// never missing from the front: at every ω the front holds a member at
// least as good on validation as each seeded formula. They take no part
// in selection; each costs |validation| simulations at the end.
func seedCandidates(cands []individual, seeds, routingSeeds []*expr.Tree, routing bool) []individual {
	in := make(map[uint64]bool, len(cands))
	for _, c := range cands {
		in[c.hash()] = true
	}
	var out []individual
	for i, t := range seeds {
		ind := individual{ranking: t}
		if routing {
			if i >= len(routingSeeds) {
				break
			}
			ind.routing = routingSeeds[i]
		}
		if h := ind.hash(); !in[h] {
			in[h] = true
			out = append(out, ind)
		}
	}
	return out
}

package learn

import "github.com/evogp/evogp/expr"

// seedCandidates are gp.seed_formulas as final candidates: ranking seed i
// (paired with routing seed i in a two-tree run, and left out where there
// is none) unless an individual of cands already is that pair. Both final
// picks use them: the scalar pick (run.go finish) chooses from the
// population, the hall of fame and these, and the front is formed from
// the archive, the run's history and these. So a seeded formula the run
// was given (wait-first's pair in the default, g * d = SRSF on the Philly
// front) is never missing at the end: the pick is at least as good on
// validation as every seed, and at every ω the front holds a member at
// least as good as each. They take no part in selection; each costs
// |validation| simulations at the end.
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

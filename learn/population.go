package learn

import (
	"cmp"
	"math"
	"slices"

	"github.com/evogp/evogp/expr"
)

// compareScored orders by fitness ascending (NaN after every number), then
// by canonical hash; equal keys keep their order (the caller sorts stably),
// which is insertion order: parents first, then offspring as bred.
func compareScored(a, b scored) int { return compareFitnessHash(a.fitness, b.fitness, a.hash, b.hash) }

// compareFitnessHash is the survival and hall-of-fame order: fitness
// ascending (NaN after every number), then canonical hash.
func compareFitnessHash(fa, fb float64, ha, hb uint64) int {
	return cmp.Or(compareFloat(fa, fb), cmp.Compare(ha, hb))
}

// compareFloat orders floats ascending with NaN last.
func compareFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// median of the fitness of a sorted population (mean of the two middle
// values when the size is even).
func median(sorted []scored) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2].fitness
	}
	return (sorted[n/2-1].fitness + sorted[n/2].fitness) / 2
}

// unique counts distinct canonical hashes.
func unique(pop []scored) int {
	seen := make(map[uint64]struct{}, len(pop))
	for _, c := range pop {
		seen[c.hash] = struct{}{}
	}
	return len(seen)
}

// HallEntry is one member of the hall of fame: a distinct (by canonical
// hash) tree with its mean normalised objective on the training subset of
// the last generation it was offered in.
type HallEntry struct {
	Tree       *expr.Tree  `json:"tree"`
	Routing    RoutingTree `json:"routing,omitzero"` // the routing tree (gp.learn: [routing, ranking])
	Score      float64     `json:"score"`            // fitness / α on that generation's subset
	Generation int         `json:"generation"`       // the generation of Score
	Validation float64     `json:"-"`                // set after the final validation
	hash       uint64
}

// updateHall offers the best min(size, |pop|) members of a sorted population
// to the hall of fame. A tree already present takes its newer score (its old
// one was measured on another subset); the hall keeps the size best entries
// by (score, hash).
func updateHall(hall []HallEntry, pop []scored, gen, alpha, size int) []HallEntry {
	for _, c := range pop[:min(size, len(pop))] {
		e := HallEntry{Tree: c.tree, Routing: RoutingTree{Tree: c.routing}, Score: c.fitness / float64(alpha), Generation: gen, hash: c.hash}
		if i := slices.IndexFunc(hall, func(h HallEntry) bool { return h.hash == c.hash }); i >= 0 {
			hall[i] = e
		} else {
			hall = append(hall, e)
		}
	}
	slices.SortStableFunc(hall, func(a, b HallEntry) int { return compareFitnessHash(a.Score, b.Score, a.hash, b.hash) })
	if len(hall) > size {
		hall = hall[:size]
	}
	return hall
}

package pareto

import (
	"cmp"
	"math"
	"slices"
)

// key maps NaN to +Inf, so that NaN is worse than every number.
func key(v float64) float64 {
	if math.IsNaN(v) {
		return math.Inf(1)
	}
	return v
}

// Dominates reports whether a Pareto-dominates b: a is no worse in every
// objective and strictly better in at least one. Equal vectors dominate
// neither way.
func Dominates(a, b []float64) bool {
	better := false
	for i := range a {
		x, y := key(a[i]), key(b[i])
		if x > y {
			return false
		}
		if x < y {
			better = true
		}
	}
	return better
}

// Ranks is non-dominated sorting: rank 0 for the members no other member
// dominates, rank 1 for those dominated only by rank-0 members, and so on
// (Deb et al.'s fast non-dominated sort, O(M·N²)). Duplicates share a
// rank.
func Ranks(points [][]float64) []int {
	n := len(points)
	count := make([]int, n)       // members dominating i
	dominated := make([][]int, n) // members i dominates
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch {
			case Dominates(points[i], points[j]):
				dominated[i] = append(dominated[i], j)
				count[j]++
			case Dominates(points[j], points[i]):
				dominated[j] = append(dominated[j], i)
				count[i]++
			}
		}
	}
	rank := make([]int, n)
	var front []int
	for i := range n {
		if count[i] == 0 {
			front = append(front, i)
		}
	}
	for r := 0; len(front) > 0; r++ {
		var next []int
		for _, i := range front {
			rank[i] = r
			for _, j := range dominated[i] {
				if count[j]--; count[j] == 0 {
					next = append(next, j)
				}
			}
		}
		slices.Sort(next)
		front = next
	}
	return rank
}

// NonDominated returns the indices (ascending) of the members of points
// that no other member dominates.
func NonDominated(points [][]float64) []int {
	var out []int
	for i, p := range points {
		dom := false
		for j, q := range points {
			if j != i && Dominates(q, p) {
				dom = true
				break
			}
		}
		if !dom {
			out = append(out, i)
		}
	}
	return out
}

// Crowding is the crowding distance of each member of a front (points[k]
// for k in front, returned in the order of front): per objective, the
// members are sorted by value (ties by their position in front); the two
// extremes get +Inf and every other member adds the gap between its
// neighbours divided by the objective's range. An objective on which the
// whole front is equal adds nothing (and makes no extremes).
func Crowding(points [][]float64, front []int) []float64 {
	n := len(front)
	d := make([]float64, n)
	if n == 0 {
		return d
	}
	order := make([]int, n)
	for m := range points[front[0]] {
		for i := range order {
			order[i] = i
		}
		val := func(i int) float64 { return key(points[front[i]][m]) }
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(val(a), val(b)) })
		lo, hi := val(order[0]), val(order[n-1])
		if !(hi > lo) {
			continue
		}
		d[order[0]], d[order[n-1]] = math.Inf(1), math.Inf(1)
		span := hi - lo
		for k := 1; k < n-1; k++ {
			gap := (val(order[k+1]) - val(order[k-1])) / span
			if math.IsNaN(gap) { // an Inf neighbour on both sides
				gap = math.Inf(1)
			}
			d[order[k]] += gap
		}
	}
	return d
}

// Order is the NSGA-II order of points: by rank ascending, then crowding
// distance descending, then tie (ascending; e.g. a hash), then index. It
// returns the indices in that order together with each member's rank and
// crowding distance.
func Order(points [][]float64, tie []uint64) (order []int, rank []int, crowd []float64) {
	n := len(points)
	rank = Ranks(points)
	crowd = make([]float64, n)
	byRank := map[int][]int{}
	for i, r := range rank {
		byRank[r] = append(byRank[r], i)
	}
	for _, front := range byRank {
		for k, c := range Crowding(points, front) {
			crowd[front[k]] = c
		}
	}
	order = make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(rank[a], rank[b]), cmp.Compare(crowd[b], crowd[a]), cmp.Compare(tie[a], tie[b]))
	})
	return order, rank, crowd
}

// Survivors returns the indices of the n members NSGA-II keeps: whole
// fronts in rank order while they fit, then the members of the next front
// with the largest crowding distance computed within that front (ties by
// tie, then index). The result is in Order's order restricted to the
// survivors.
func Survivors(points [][]float64, tie []uint64, n int) []int {
	order, _, _ := Order(points, tie)
	if n >= len(order) {
		return order
	}
	return order[:n]
}

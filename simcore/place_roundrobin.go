package simcore

// RoundRobin spreads a job's workers as Spark's standalone scheduler spreads
// executors: visit the nodes cyclically in index order from node 0 and put
// one worker on each visited node that still holds one, until all r are
// placed.
type RoundRobin struct{}

// PickOne implements OnePlacer: the first node that holds a worker.
func (RoundRobin) PickOne(free []int, w int) int {
	for n, f := range free {
		if f >= w {
			return n
		}
	}
	return -1
}

// Place implements Placer.
func (RoundRobin) Place(free []int, w, r int, place []int) {
	for r > 0 {
		placed := false
		for n := range free {
			if r == 0 {
				break
			}
			if free[n] >= w {
				free[n] -= w
				place[n]++
				r--
				placed = true
			}
		}
		if !placed {
			return // the caller guaranteed capacity; nothing more fits
		}
	}
}

package simcore

// BestFit places one worker at a time on the node with the smallest free
// capacity that still holds a worker (ties → lowest node index).
//
// After a worker lands on the best node n its free capacity only shrinks, so
// n stays the best node while it still holds a worker: BestFit therefore
// fills the chosen node before looking again, which gives the same placement
// as the worker-by-worker rule in O(N) per node used.
type BestFit struct{}

// Place implements Placer.
func (BestFit) Place(free []int, w, r int, place []int) {
	for r > 0 {
		best := -1
		for n, f := range free {
			if f >= w && (best < 0 || f < free[best]) {
				best = n
			}
		}
		if best < 0 {
			return // the caller guaranteed capacity; nothing more fits
		}
		k := min(free[best]/w, r)
		free[best] -= k * w
		place[best] += k
		r -= k
	}
}

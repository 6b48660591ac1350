package simcore

// BestFit places one worker at a time on the node with the smallest free
// capacity that still holds a worker (ties → lowest node index).
//
// Once a worker lands on the best node n, n's free capacity only shrinks,
// so n stays the best node until it can hold no more workers; the nodes are
// therefore used in ascending (free, index) order, each filled before the
// next. Place does exactly that, one scan per distinct free value used:
// O(N·V) for V distinct values (V ≤ G/w, usually 1–3) instead of O(N·r).
// A scan stops at a node with exactly the smallest value still possible,
// and filling starts at the first node of the value found.
type BestFit struct{}

// PickOne implements OnePlacer: the first node of least free ≥ w, in one
// scan.
func (BestFit) PickOne(free []int, w int) int {
	best := -1
	for n, f := range free {
		if f >= w && (best < 0 || f < free[best]) {
			best = n
			if f == w {
				break // nothing smaller can qualify
			}
		}
	}
	return best
}

// Place implements Placer.
func (b BestFit) Place(free []int, w, r int, place []int) {
	if r == 1 { // one worker (most jobs)
		if n := b.PickOne(free, w); n >= 0 {
			free[n] -= w
			place[n]++
		}
		return
	}
	lo := w // smallest free value still to visit
	for r > 0 {
		v, first := -1, 0
		for n, f := range free {
			if f >= lo && (v < 0 || f < v) {
				v, first = f, n
				if f == lo {
					break // nothing smaller can qualify
				}
			}
		}
		if v < 0 {
			return // the caller guaranteed capacity; nothing more fits
		}
		for n := first; n < len(free); n++ {
			if free[n] != v {
				continue
			}
			k := min(v/w, r)
			free[n] -= k * w
			place[n] += k
			r -= k
			if r == 0 {
				return
			}
		}
		lo = v + 1
	}
}

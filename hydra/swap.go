package hydra

// SwapHeuristic is Hydra's fallback order (SPEC §13). It starts from SPT
// order. While some job misses its deadline, it takes the window that ends
// at the rightmost late job and moves the job just before the window to
// just after it; the window's start moves one place to the front with every
// move, and a moved job that now misses its own deadline joins the window
// (it is then the rightmost late job, where the window ends). It stops when
// no job is late or the window reaches the front.
//
// A move inside positions [start−1, end] changes no completion time after
// end and none before start−1, so after a move the rightmost late job is
// either inside the window or, when every window job is now on time, left
// of it. Recomputing it after each move lets the window shrink from the
// right when its last job is no longer late (the next moved job then lands
// just after the rightmost job that still is); when it lies left of the
// window, a new window starts at that job.
//
// items need not be sorted; the result is a fresh slice.
func SwapHeuristic(items []Item, offset int64) []Item { return swap(items, offset, nil) }

// swap runs the heuristic, calling visit (if not nil) with the order before
// the first move and after every move.
func swap(items []Item, offset int64, visit func([]Item)) []Item {
	return swapSorted(SPT(items), offset, visit)
}

// swapSorted runs the heuristic in place on order, which must be in SPT
// order, and returns it.
func swapSorted(order []Item, offset int64, visit func([]Item)) []Item {
	rightmostLate := func() int {
		t, r := offset, -1
		for k, it := range order {
			t += it.Dur
			if tardiness(t, it.Due) > 0 {
				r = k
			}
		}
		return r
	}
	if visit != nil {
		visit(order)
	}
	end := rightmostLate()
	start := end
	for end >= 0 && start > 0 {
		// Move order[start−1] to just after order[end].
		moved := order[start-1]
		copy(order[start-1:end], order[start:end+1])
		order[end] = moved
		start--
		end = rightmostLate()
		if end >= 0 && end < start {
			start = end // the window's jobs are all on time: a new window at the rightmost late job
		}
		if visit != nil {
			visit(order)
		}
	}
	return order
}

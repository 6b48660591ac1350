package datasets

import "github.com/evogp/evogp/simcore"

// CountDeadlines is the number of jobs of inst that have a deadline
// (Job.Deadline ≠ 0, SPEC §12).
func CountDeadlines(inst simcore.Instance) int {
	n := 0
	for _, j := range inst.Jobs {
		if j.Deadline != 0 {
			n++
		}
	}
	return n
}

// HasDeadlines reports whether some job of some instance has a deadline,
// so that its deadline metrics (total_tardiness, deadline_misses) mean
// something.
func HasDeadlines(insts []simcore.Instance) bool {
	for _, in := range insts {
		if CountDeadlines(in) > 0 {
			return true
		}
	}
	return false
}

package simcore

// MCT is Minimum Completion Time (Panda & Jana): each newly arrived job, in
// (arrival, id) order, goes to the feasible cluster where the plan with the
// job added gives it the earliest finish F_j; ties go to the user cluster
// s_j, then to the lowest cluster index. Jobs assigned earlier keep their
// cluster.
//
// No plan can finish a job before t + min_p d_{j,p}, so a cluster reaching that bound
// is optimal: MCT asks the user cluster first and then the others in index
// order, and stops at the first that reaches the bound. The choice is the
// same as comparing every cluster (TestMCTShortcutIsExact). A job feasible
// on one cluster only (every job of a single-cluster instance) goes there
// without a what-if.
type MCT struct{}

// KeyOrderOnly implements KeyOrderOnly: MCT's what-ifs compare keys on the
// live plans.
func (MCT) KeyOrderOnly() bool { return true }

// Allocate implements Allocator.
func (MCT) Allocate(a *Allocation) error {
	for _, i := range a.Arrivals() {
		job := a.Job(i)
		user := job.Cluster
		if only := a.onlyFeasible(i); only >= 0 {
			a.Assign(i, only) // nothing to compare: no what-if needed
			continue
		}
		bound := a.Now() + a.MinRemaining(i)
		best, bestF := -1, int64(never)
		if a.Feasible(i, user) {
			f, err := a.FinishOn(i, user)
			if err != nil {
				return err
			}
			best, bestF = user, f
		}
		for p := 0; p < a.Clusters() && bestF > bound; p++ {
			if p == user || !a.Feasible(i, p) {
				continue
			}
			f, err := a.FinishOn(i, p)
			if err != nil {
				return err
			}
			if best < 0 || f < bestF {
				best, bestF = p, f
			}
		}
		if best < 0 {
			best = user // Validate guarantees some cluster fits; keep it safe
		}
		a.Assign(i, best)
	}
	return nil
}

// onlyFeasible returns the one cluster job i is feasible on, or −1 when it
// is feasible on none or on more than one.
func (a *Allocation) onlyFeasible(i int) int {
	only := -1
	for p := range a.Clusters() {
		if a.Feasible(i, p) {
			if only >= 0 {
				return -1
			}
			only = p
		}
	}
	return only
}

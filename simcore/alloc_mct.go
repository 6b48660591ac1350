package simcore

// MCT is Minimum Completion Time (Panda & Jana): each newly arrived job, in
// (arrival, id) order, goes to the feasible cluster where the plan with the
// job added gives it the earliest finish F_j; ties go to the user cluster
// s_j, then to the lowest cluster index. Jobs assigned earlier keep their
// cluster.
type MCT struct{}

// Allocate implements Allocator.
func (MCT) Allocate(a *Allocation) error {
	for _, i := range a.Arrivals() {
		user := a.Job(i).Cluster
		best, bestF := -1, int64(never)
		for p := range a.Clusters() {
			if !a.Feasible(i, p) {
				continue
			}
			f, err := a.FinishOn(i, p)
			if err != nil {
				return err
			}
			if best < 0 || f < bestF || (f == bestF && p == user) {
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

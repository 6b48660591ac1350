package simcore

import "fmt"

// UserAllocator keeps every job on its user-specified cluster: c_j = s_j.
type UserAllocator struct{}

// KeyOrderOnly implements KeyOrderOnly: the user allocator ignores the
// ranking.
func (UserAllocator) KeyOrderOnly() bool { return true }

// Allocate implements Allocator.
func (UserAllocator) Allocate(a *Allocation) error {
	for _, i := range a.Arrivals() {
		j := a.Job(i)
		if !a.Feasible(i, j.Cluster) {
			return fmt.Errorf("simcore: job %d does not fit its user cluster %d, so the user allocator cannot run it", j.ID, j.Cluster)
		}
		a.Assign(i, j.Cluster)
	}
	return nil
}

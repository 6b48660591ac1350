package simcore

// Ranking orders the schedulable jobs of one cluster: the job with the
// smaller Priority is planned first. Ties are broken by arrival, then id.
// NaN sorts after every number. Implementations must be safe for concurrent
// use if the same value is shared by simulations running in parallel.
type Ranking interface {
	Priority(j JobView) float64
}

// RankingFunc adapts a plain function to Ranking.
type RankingFunc func(j JobView) float64

// Priority calls f.
func (f RankingFunc) Priority(j JobView) float64 { return f(j) }

// Placer chooses the nodes for a job's workers at its start time.
// free holds σ(n, S) for each node (may be negative) and is updated in place;
// place[n] receives the number of workers put on node n. The caller
// guarantees Σ_n ⌊max(0,free[n])/w⌋ ≥ r.
type Placer interface {
	Place(free []int, w, r int, place []int)
}

// Allocator chooses the cluster of each schedulable job (§5.1).
type Allocator interface {
	// Allocate sets the cluster of the operation's jobs through a.
	Allocate(a *Allocation) error
}

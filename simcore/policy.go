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

// OnePlacer is implemented by placers that can place a single worker
// without a per-node result vector: PickOne returns the node that
// Place(free, w, 1, place) would put the worker on, or −1 when no node
// holds w GPUs, and leaves free unchanged.
type OnePlacer interface {
	PickOne(free []int, w int) int
}

// Allocator chooses the cluster of each schedulable job (§5.1).
type Allocator interface {
	// Allocate sets the cluster of the operation's jobs through a.
	Allocate(a *Allocation) error
}

// KeyOrderOnly is implemented by allocators whose decisions depend on the
// ranking only through the list scheduler's key comparisons on the live
// plans (user and mct): two rankings that order every pair of jobs alike
// give them the same schedule (learn's order-equivalence relies on it). An
// allocator that plans member sets of its own through the seam (EVO,
// mct-all) does not implement it, nor does an allocator that reads the key
// values.
type KeyOrderOnly interface {
	KeyOrderOnly() bool
}

// ClusterAware is implemented by rankings that read the cluster-state
// fields of JobView (FreeGPUs, QueueLen, FitsNow); the engine fills them
// only for rankings whose NeedsClusterState is true. They describe the
// ranking cluster at the start of the operation, after this operation's
// arrivals joined the queue and before any allocation or plan: FreeGPUs
// is its capacity minus the GPUs of the jobs running at t, QueueLen the
// number of queued jobs already assigned to it (arrivals not yet counted),
// FitsNow whether the job's workers fit on the free GPUs of its nodes.
type ClusterAware interface {
	NeedsClusterState() bool
}

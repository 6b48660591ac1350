// Package simcore is evogp's online, event-driven multi-cluster GPU scheduling
// simulator: the instance model, the scheduling operation of SPEC §4, the
// policies of §5 (allocators, rankings, placers) and the metrics of §6.
//
// simcore imports no other evogp package. It knows nothing about expression
// trees: a ranking is any value with a Priority(JobView) float64 method, so a
// compiled GP program plugs in through an adapter that lives elsewhere.
//
// # Model
//
// Time is integer seconds. A scheduling operation runs at every distinct
// arrival time (and, with TriggerArrivalCompletion, at every completion).
// At an operation at time t the running jobs that run on their user cluster
// (Jn) keep their placement; every other unfinished job (Js) is given a
// cluster by the Allocator, ranked by (Priority, arrival, id) and placed in
// that order by the cluster planner (§4.3).
//
// # Planner and its complexity
//
// Without backfilling (the default, Eq. 13 of the paper) every job placed in a
// plan occupies its GPUs from t until its finish F. Free GPUs on node n at τ,
// σ(n, τ), are therefore non-decreasing in τ and change only at the finish
// times of placed jobs. The planner keeps, per cluster, the placed jobs'
// releases (finish time, node, GPUs) in a slice sorted by finish time. The
// earliest start of the next job is found by one sweep: start from σ(·, t),
// keep the count C = Σ_n ⌊max(0, σ(n))/w⌋ up to date as releases are applied
// in time order, and stop at the first τ with C ≥ r. One job costs
// O(N + R) for N nodes and R releases, plus O(r·N) for best-fit placement
// and O(R) to insert its own release; a cluster plan of k ranked jobs costs
// O(k·(N + R + r·N)) with R ≤ number of unfinished jobs on that cluster.
// Finished jobs are never visited again: the per-operation cost depends only
// on the unfinished jobs.
package simcore

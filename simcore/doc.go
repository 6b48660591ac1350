// Package simcore is evogp's online, event-driven multi-cluster GPU scheduling
// simulator: the instance model, the scheduling operation of SPEC §4, the
// policies of §5 (allocators, rankings, placers) and the metrics of §6.
//
// simcore imports no other evogp package. It knows nothing about expression
// trees: a ranking is any value with a Priority(JobView) float64 method, so a
// compiled GP program plugs in through an adapter that lives elsewhere.
//
// # The scheduler seam
//
// At every scheduling operation the engine hands the Scheduler a read-only
// State (time, operation index, active jobs with remaining work and
// accumulated queueing, Jn/Js, placements, clusters, DurationOn) and an
// empty Plan; the scheduler fills the Plan (per job: cluster, start and
// placement, or waiting); the engine validates the plan — every Js job
// decided, feasible cluster, no start before t, exact worker count on
// existing nodes, no node over capacity at any instant, Jn untouched —
// and executes it (SPEC §4.4). A plan that breaks a rule stops the run
// with an error naming the scheduler, the job and the rule.
//
//	dataset → Instance → engine ⇄ Scheduler.Plan(State) → Plan → Result
//
// The paper's allocate → rank → place pipeline is one Scheduler,
// ListScheduler, which plans through the engine's incremental per-cluster
// planners. Schedulers that need operations at completions too implement
// CompletionTriggered.
//
// # The allocation seam
//
// A ListScheduler's Allocator sees the operation through Allocation. An
// allocator that re-decides every job of Js (EVO and mct-all in
// simcore/evo, a learned allocation rule) finds there the State, the
// ranking key and order on a cluster, the placer and options, the
// operation index and context, side-effect-free what-if plans of member
// sets (WhatIfs: the level planner or the list scheduler's what-if
// planner, with the same starts), the Jn jobs of a cluster and the
// operation log (RecordOp). Capabilities replace type switches: an
// allocator that supports only some backfill modes implements
// BackfillChecker; one whose decisions depend on the ranking only through
// key comparisons implements KeyOrderOnly. simcore imports no EVO code.
//
// Policies are built by name from a Registry (NewRegistry): allocators,
// rankings and placers composed as ALLOCATOR+RANKING+PLACER, whole
// schedulers, aliases and the named baselines (Baselines). Each factory
// takes Params: extra named rankings (learned formulas) and typed
// parameter sections (Section). A new policy is one file plus one
// registration call; packages beside simcore (simcore/evo, hydra) register
// theirs into a registry they are given, and package policies holds all
// of them.
//
// # Heterogeneous durations
//
// A job's duration on a cluster is Job.DurationOn(cluster GPU type)
// (SPEC §12). Progress is work: a job moved to another GPU type keeps its
// done fraction and its remaining time is rescaled exactly (work.go). On
// homogeneous instances this reduces to the scalar Duration.
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
//
// Five refinements keep long (overloaded) queues cheap, all exact against
// replanning everything: the sweep of a worker shape (w, r) resumes from
// its last answer on the same plan state (startcache.go); a reordered
// queue is re-placed only from its first changed rank (rewind.go); a
// rebuild keeps the last plan's decisions that provably hold (splice.go);
// a plan is placed only until no job left can start before the next
// arrival, and extended when an MCT what-if asks for more (horizon.go),
// and only the front of its queue is sorted (rankorder.go);
// and
// rankings that declare TimeInvariant have each waiting job's key computed
// once per cluster (keys.go). Other rankings may implement KeyBatcher and
// receive all of an operation's views in one call (a compiled formula
// evaluates them as columns); one that declares CoreViews gets views with
// only the fields of d, q, u and g set. Placers that implement OnePlacer
// place a one-worker job by reading σ without a per-node result vector.
//
// Per operation the engine walks Js only, not every active job: Js is a
// list of its own, jobs in Jn (which only run to a finish known at their
// start) finish off a heap, their counters are brought up to date only when
// read (lazyJn), and the early-stop bound settles their terms when they
// start. Conservative backfilling keeps per-node
// reservation timelines with a sliding-window maximum (timeline.go); the
// strict and preemptive side-by-side modes are in modes.go.
package simcore

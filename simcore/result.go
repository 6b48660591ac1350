package simcore

// Trigger says when scheduling operations run (§4.1).
type Trigger int

const (
	// TriggerArrival runs an operation at every distinct arrival time.
	TriggerArrival Trigger = iota
	// TriggerArrivalCompletion also runs one at every completion time.
	TriggerArrivalCompletion
)

// Backfill selects how placed jobs occupy capacity in a plan (§4.3).
type Backfill int

const (
	// BackfillNone: every placed job occupies its GPUs from t to its finish
	// (Eq. 13); a lower-ranked job never uses a higher-ranked reservation.
	BackfillNone Backfill = iota
	// BackfillConservative: placed jobs occupy only [S, F); a job takes the
	// earliest slot that disturbs no earlier reservation.
	BackfillConservative
	// BackfillGreedy: no reservations; at arrivals and completions start
	// every ranked job that fits now.
	BackfillGreedy
	// BackfillStrict: greedy with head-of-line blocking: the walk stops
	// at the first ranked job that does not fit now (modes.go).
	BackfillStrict
	// BackfillPreemptive: greedy over all unfinished jobs, running ones
	// included; a higher-ranked job preempts lower-ranked running ones
	// when idle GPUs do not suffice (modes.go).
	BackfillPreemptive
)

// Options configure one simulation.
type Options struct {
	Trigger   Trigger
	Backfill  Backfill
	Objective Objective
	// RecordSegments keeps every execution interval of every job in
	// Result.Segments (for invariant checks and Gantt plots).
	RecordSegments bool
	// StopAbove, when > 0, stops the simulation with a *BoundExceeded
	// error as soon as a lower bound of the final objective exceeds it
	// (see bound.go): a candidate that cannot beat a threshold need not
	// be simulated to the end.
	StopAbove float64
	// OnOperation, when set, is called after every scheduling operation
	// with the simulated time, the jobs arrived so far and the jobs
	// finished so far (of len(Instance.Jobs)): progress for long runs. It
	// must be cheap and must not retain anything.
	OnOperation func(t int64, arrived, finished int)
	// RecordOps keeps the allocator's operation log (Allocation.RecordOp,
	// one OpRecord per EVO allocation) in Result.Ops.
	RecordOps bool
	// CheckPlans validates the built-in list scheduler's plans too, at
	// every operation (other schedulers' plans are always validated).
	CheckPlans bool
	// PreemptOverhead is the checkpoint/restore cost, in seconds, added to
	// a job's remaining time each time backfill preemptive preempts or
	// moves it (homogeneous instances only).
	PreemptOverhead int64
	// ArrivalTies orders jobs with equal arrival times (tieorder.go); the
	// zero value is TiesByID.
	ArrivalTies ArrivalTies
}

// JobResult is the outcome of one job (§4.5). Times are seconds.
type JobResult struct {
	ID          int64
	Arrival     int64
	Duration    int64
	GPUs        int
	Priority    int
	User        int   // s_j
	Cluster     int   // the last assigned cluster
	Start       int64 // first start
	Finish      int64
	Queue       int64 // JCT − d
	Preemptions int
	Migrations  int
	Deadline    int64
}

// JCT is F − a in seconds.
func (r JobResult) JCT() int64 { return r.Finish - r.Arrival }

// Segment is one uninterrupted execution of a job on a fixed placement.
type Segment struct {
	Job        int // index into Instance.Jobs
	Cluster    int
	Start, End int64
	Workers    []int // workers per node, len = cluster nodes
}

// Result is the outcome of one simulation.
type Result struct {
	Instance   string
	Scheduler  string
	Jobs       []JobResult // in instance job order
	Metrics    Metrics
	Operations int // scheduling operations run
	Segments   []Segment
	Ops        []OpRecord // with RecordOps: the allocator's per-operation log (EVO's)
}

// OpRecord is one row of an allocator's operation log (Allocation.RecordOp):
// for EVO one scheduling operation, the data of the paper's Fig. 12. WallMS
// is the only field that is not reproducible.
type OpRecord struct {
	Time        int64   // t (s)
	Js          int     // |Js|
	Generations int     // generations run
	Evaluations int     // individuals evaluated
	MCTFitness  float64 // fitness at t of the current assignment (previous clusters, arrivals by MCT)
	EVOFitness  float64 // fitness at t of the chosen assignment
	WallMS      float64
}

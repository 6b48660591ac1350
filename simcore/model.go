package simcore

import (
	"fmt"
	"math"
)

// Cluster is one homogeneous cluster p of N_p nodes with G_p GPUs each.
type Cluster struct {
	Nodes       int    // N_p ≥ 1
	GPUsPerNode int    // G_p ≥ 1
	GPUType     string // optional, empty by default
}

// Size limits of one cluster. The simulator keeps a few words of state
// per node (planner, timeline, placement) and the evo allocator's planner
// one word per GPU, all allocated before the first operation, so a cluster
// must be small enough for those arrays: nodes ≤ MaxNodes, gpus_per_node
// ≤ MaxGPUsPerNode and nodes × gpus_per_node ≤ MaxClusterGPUs (at most
// ~128 MiB per array). The largest real clusters (Philly: ~550 nodes of
// 2–8 GPUs) are far below them.
const (
	MaxNodes       = 1 << 20
	MaxGPUsPerNode = 1 << 16
	MaxClusterGPUs = 1 << 24
)

// checkSize checks c against the size limits; the error names the field.
func (c Cluster) checkSize() error {
	switch {
	case c.Nodes > MaxNodes:
		return fmt.Errorf("nodes = %d is above the maximum %d", c.Nodes, MaxNodes)
	case c.GPUsPerNode > MaxGPUsPerNode:
		return fmt.Errorf("gpus_per_node = %d is above the maximum %d", c.GPUsPerNode, MaxGPUsPerNode)
	case c.Nodes*c.GPUsPerNode > MaxClusterGPUs:
		return fmt.Errorf("nodes × gpus_per_node = %d × %d is above the maximum %d GPUs per cluster", c.Nodes, c.GPUsPerNode, MaxClusterGPUs)
	}
	return nil
}

// CheckClusterSize reports whether a cluster of nodes × gpusPerNode GPUs
// is within the size limits (MaxNodes, MaxGPUsPerNode, MaxClusterGPUs);
// the error names the field. Readers use it to reject a row before they
// build anything from it.
func CheckClusterSize(nodes, gpusPerNode int) error {
	return Cluster{Nodes: nodes, GPUsPerNode: gpusPerNode}.checkSize()
}

// GPUs is the cluster's capacity N_p·G_p.
func (c Cluster) GPUs() int { return c.Nodes * c.GPUsPerNode }

// Job is one rigid training job (SPEC §3). Times are seconds.
type Job struct {
	ID       int64  // unique within its instance
	Arrival  int64  // a_j ≥ 0
	Cluster  int    // s_j, the user-specified cluster (0-based)
	Duration int64  // d_j ≥ 1
	Workers  int    // r_j ≥ 1
	GPUs     int    // g_j ≥ r_j, divisible by r_j
	Priority int    // u_j ≥ 1, larger = more urgent
	Deadline int64  // 0 = none
	Name     string // optional

	// Estimate is the duration schedulers see in place of Duration (SPEC
	// §14), in seconds; 0 = schedulers see the true duration. The engine
	// always runs the true duration and metrics use truth.
	Estimate int64

	// TypeDurations optionally gives the job's duration on a GPU type
	// (SPEC §12), keyed by Cluster.GPUType. A missing entry falls back to
	// Duration; an entry ≤ 0 means the job cannot run on that type. Nil
	// on homogeneous instances.
	TypeDurations map[string]int64

	// Release, when later than Arrival, is the time the job joins the
	// simulation: its first scheduling operation. Its queuing time (q)
	// and its age (a) still count from Arrival. It describes a job that
	// waited in a live queue before the simulation took it over (SPEC §20,
	// deploy/slurm); 0 = the job joins at its arrival, as every job of a
	// dataset does.
	Release int64
}

// joins is the time the job joins the simulation: max(Arrival, Release).
func (j *Job) joins() int64 { return max(j.Arrival, j.Release) }

// DurationOn is d_{j,p}, the job's duration on a cluster of GPU type
// gpuType: its TypeDurations entry, or Duration when there is none. It is
// 0 when the job cannot run on that type.
func (j Job) DurationOn(gpuType string) int64 {
	if d, ok := j.TypeDurations[gpuType]; ok {
		return max(d, 0)
	}
	return j.Duration
}

// PerWorker is w_j = g_j / r_j, the GPUs each worker uses.
func (j Job) PerWorker() int { return j.GPUs / j.Workers }

// FitsOn reports whether job j can ever run on cluster c:
// w_j ≤ G_p and ⌊G_p / w_j⌋·N_p ≥ r_j, and (SPEC §12) the job has a
// duration on the cluster's GPU type.
func (j Job) FitsOn(c Cluster) bool {
	if j.TypeDurations != nil && j.DurationOn(c.GPUType) <= 0 {
		return false
	}
	w := j.PerWorker()
	if w <= 0 || w > c.GPUsPerNode {
		return false
	}
	return (c.GPUsPerNode/w)*c.Nodes >= j.Workers
}

// Instance is a set of clusters and jobs to be scheduled online.
type Instance struct {
	Name     string
	Clusters []Cluster
	Jobs     []Job
}

// Validate checks the instance against SPEC §3 and returns the first problem
// found, naming the instance and job.
func (in *Instance) Validate() error {
	if len(in.Clusters) == 0 {
		return fmt.Errorf("instance %q: no clusters", in.Name)
	}
	if len(in.Jobs) == 0 {
		return fmt.Errorf("instance %q: no jobs", in.Name)
	}
	for p, c := range in.Clusters {
		if c.Nodes < 1 {
			return fmt.Errorf("instance %q: cluster %d: nodes = %d, must be ≥ 1", in.Name, p, c.Nodes)
		}
		if c.GPUsPerNode < 1 {
			return fmt.Errorf("instance %q: cluster %d: gpus_per_node = %d, must be ≥ 1", in.Name, p, c.GPUsPerNode)
		}
		if err := c.checkSize(); err != nil {
			return fmt.Errorf("instance %q: cluster %d: %w", in.Name, p, err)
		}
	}
	seen := make(map[int64]struct{}, len(in.Jobs))
	for _, j := range in.Jobs {
		where := func(format string, a ...any) error {
			return fmt.Errorf("instance %q: job %d: %s", in.Name, j.ID, fmt.Sprintf(format, a...))
		}
		if _, dup := seen[j.ID]; dup {
			return where("duplicate job id")
		}
		seen[j.ID] = struct{}{}
		switch {
		case j.Arrival < 0:
			return where("arrival = %d, must be ≥ 0", j.Arrival)
		case j.Duration < 1:
			return where("duration = %d, must be ≥ 1 s", j.Duration)
		case j.Workers < 1:
			return where("workers = %d, must be ≥ 1", j.Workers)
		case j.GPUs < j.Workers:
			return where("gpus = %d, must be ≥ workers (%d)", j.GPUs, j.Workers)
		case j.GPUs%j.Workers != 0:
			return where("gpus = %d not divisible by workers = %d", j.GPUs, j.Workers)
		case j.Priority < 1:
			return where("priority = %d, must be ≥ 1", j.Priority)
		case j.Deadline < 0:
			return where("deadline = %d, must be ≥ 0", j.Deadline)
		case j.Release < 0:
			return where("release = %d, must be ≥ 0 (0 = at its arrival)", j.Release)
		case j.Estimate < 0:
			return where("estimate = %d, must be ≥ 0 s (0 = none)", j.Estimate)
		case j.Cluster < 0 || j.Cluster >= len(in.Clusters):
			return where("unknown cluster %d (instance has %d clusters)", j.Cluster, len(in.Clusters))
		}
		feasible := false
		for _, c := range in.Clusters {
			if j.FitsOn(c) {
				feasible = true
				break
			}
		}
		if !feasible {
			return where("feasible on no cluster (%d workers × %d GPUs)", j.Workers, j.PerWorker())
		}
	}
	return nil
}

// JobView is the read-only view of a job that rankings see at an operation.
// Times are seconds; rankings convert to the unit they want.
type JobView struct {
	ID        int64
	Arrival   int64
	Now       int64 // the operation time t
	Duration  int64 // d_j, total
	Remaining int64 // rem_j
	Queued    int64 // time since arrival not running, up to Now
	GPUs      int
	Workers   int
	PerWorker int
	Priority  int
	Deadline  int64
	Cluster   int // the cluster the job is being ranked on (c_j)
	User      int // s_j

	// Cluster state at Now, for the extra GP terminals of SPEC §8. They are
	// filled only for rankings that declare they read them (see
	// ClusterAware); otherwise they are zero.
	FreeGPUs int  // f: GPUs of the ranking cluster free at Now
	QueueLen int  // n: jobs queued (not running) on the ranking cluster
	FitsNow  bool // e: the job's workers fit on the free GPUs at Now
	// Speed is v_{j,p} = min_p' d_{j,p'} / d_{j,p} ∈ (0, 1] (SPEC §12):
	// 1 on homogeneous instances and on the job's fastest type.
	Speed float64
}

const secondsPerHour = 3600.0

// Hours converts seconds to hours.
func Hours(s int64) float64 { return float64(s) / secondsPerHour }

// KeyLess is the engine's order of ranking keys: ascending, NaN after
// every number. Two keys neither of which is KeyLess than the other (equal
// numbers, −0 and +0, or two NaNs) tie, and the engine then orders the
// jobs by arrival and id.
func KeyLess(a, b float64) bool { return lessKey(a, b) }

// lessKey orders ranking keys ascending with NaN after every number.
func lessKey(a, b float64) bool {
	if math.IsNaN(a) {
		return false
	}
	if math.IsNaN(b) {
		return true
	}
	return a < b
}

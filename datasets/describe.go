package datasets

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/evogp/evogp/simcore"
)

// Summary describes one instance (or, from Totals, a whole dataset).
type Summary struct {
	Instance string  `json:"instance"`
	Clusters int     `json:"clusters"`
	Nodes    int     `json:"nodes"` // Σ_p N_p
	GPUs     int     `json:"gpus"`  // Σ_p N_p·G_p
	Jobs     int     `json:"jobs"`
	GPUHours float64 `json:"gpu_hours"` // Σ_j g_j·d_j / 3600
	SpanH    float64 `json:"span_h"`    // arrival span (max_j a_j − min_j a_j) / 3600
	Load     float64 `json:"-"`         // offered load ρ; NaN when undefined (see Describe)
	// ClusterLoad is the mean over clusters of their own offered load ρ_p
	// (jobs by user cluster); NaN when no cluster's is defined.
	ClusterLoad float64     `json:"-"`
	Types       []TypeCount `json:"types"` // job-type mix, most frequent first

	// Heterogeneity and deadlines (SPEC §12).
	GPUTypes  []TypeGPUs `json:"gpu_types,omitempty"` // GPUs per non-empty gpu_type, by name
	Deadlines int        `json:"deadlines"`           // jobs with a deadline
	// Speed is the spread over jobs of the ratio slowest/fastest duration
	// among the instance's GPU types the job can run on (1 = no speed
	// difference), for the jobs with per-type durations; nil without.
	Speed  *Spread   `json:"speed_ratio,omitempty"`
	ratios []float64 // the per-job ratios, for Totals
}

// TypeGPUs is the number of GPUs of one GPU type.
type TypeGPUs struct {
	Type string `json:"type"`
	GPUs int    `json:"gpus"`
}

// Spread summarises a sample: its size, minimum, median and maximum.
type Spread struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// DeadlineFraction is the fraction of jobs that have a deadline (0 when
// there are no jobs).
func (s Summary) DeadlineFraction() float64 {
	if s.Jobs == 0 {
		return 0
	}
	return float64(s.Deadlines) / float64(s.Jobs)
}

// spreadOf is the Spread of xs (nil when empty); xs is sorted in place.
func spreadOf(xs []float64) *Spread {
	if len(xs) == 0 {
		return nil
	}
	slices.Sort(xs)
	n := len(xs)
	med := xs[n/2]
	if n%2 == 0 {
		med = (xs[n/2-1] + xs[n/2]) / 2
	}
	return &Spread{N: n, Min: xs[0], Median: med, Max: xs[n-1]}
}

// speedRatio is max_p d_{j,p} / min_p d_{j,p} over the instance's GPU types
// on which job j can run; ok is false when j has no per-type durations.
func speedRatio(j simcore.Job, types []string) (float64, bool) {
	if len(j.TypeDurations) == 0 {
		return 0, false
	}
	var lo, hi int64
	for _, t := range types {
		d := j.DurationOn(t)
		if d <= 0 {
			continue
		}
		if lo == 0 || d < lo {
			lo = d
		}
		hi = max(hi, d)
	}
	if lo == 0 {
		return 0, false
	}
	return float64(hi) / float64(lo), true
}

func addTypeGPUs(acc []TypeGPUs, typ string, gpus int) []TypeGPUs {
	for i := range acc {
		if acc[i].Type == typ {
			acc[i].GPUs += gpus
			return acc
		}
	}
	acc = append(acc, TypeGPUs{Type: typ, GPUs: gpus})
	slices.SortFunc(acc, func(a, b TypeGPUs) int { return cmp.Compare(a.Type, b.Type) })
	return acc
}

// TypeCount is the number of jobs of one (workers, gpus) type.
type TypeCount struct {
	Workers int `json:"workers"`
	GPUs    int `json:"gpus"`
	Jobs    int `json:"jobs"`
}

// String renders a type as "workers×gpus", e.g. "1x8".
func (t TypeCount) String() string { return fmt.Sprintf("%dx%d", t.Workers, t.GPUs) }

// MarshalJSON writes the summary with "offered_load" and
// "mean_cluster_load" as numbers, or null when undefined.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	finite := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	return json.Marshal(struct {
		plain
		Load        *float64 `json:"offered_load"`
		ClusterLoad *float64 `json:"mean_cluster_load"`
	}{plain(s), finite(s.Load), finite(s.ClusterLoad)})
}

// Describe summarises an instance.
//
// The offered load is the GPU time the jobs demand divided by the GPU time
// the clusters offer while the jobs arrive:
//
//	ρ = Σ_j g_j·d_j / (Σ_p N_p·G_p × (max_j a_j − min_j a_j))
//
// (both in GPU-hours). ρ ≈ 1 means the arrivals alone keep every GPU busy;
// above 1 the queue must grow during the arrival window. When every job
// arrives at the same instant the span is 0 and ρ is undefined: Load is NaN
// (null in JSON).
//
// ClusterLoad averages the same ratio taken per cluster p over the jobs
// whose user cluster is p and their own arrival span:
// ρ_p = Σ_{s_j=p} g_j·d_j / (N_p·G_p × span_p). For the Table II generator
// with Poisson arrivals E[ρ_p] ≈ λ_p/λ_max, so ClusterLoad is near
// (load_min + load_max)/2 on average; the instance's ρ is lower whenever
// the clusters' spans differ, because every cluster's capacity is counted
// over the longest span.
//
// Types lists every (workers, gpus) type present, by count descending, then
// workers and gpus ascending. GPUTypes, Deadlines and Speed describe the
// heterogeneity and deadlines of SPEC §12.
func Describe(inst simcore.Instance) Summary {
	s := Summary{Instance: inst.Name, Clusters: len(inst.Clusters), Jobs: len(inst.Jobs)}
	var types []string
	for _, c := range inst.Clusters {
		s.Nodes += c.Nodes
		s.GPUs += c.GPUs()
		if c.GPUType != "" {
			s.GPUTypes = addTypeGPUs(s.GPUTypes, c.GPUType, c.GPUs())
		}
		if !slices.Contains(types, c.GPUType) {
			types = append(types, c.GPUType)
		}
	}
	for _, j := range inst.Jobs {
		if j.Deadline != 0 {
			s.Deadlines++
		}
		if r, ok := speedRatio(j, types); ok {
			s.ratios = append(s.ratios, r)
		}
	}
	s.Speed = spreadOf(slices.Clone(s.ratios))
	type key struct{ w, g int }
	counts := map[key]int{}
	var gpuSeconds float64
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, j := range inst.Jobs {
		gpuSeconds += float64(j.GPUs) * float64(j.Duration)
		lo, hi = min(lo, j.Arrival), max(hi, j.Arrival)
		counts[key{j.Workers, j.GPUs}]++
	}
	s.GPUHours = gpuSeconds / 3600
	if len(inst.Jobs) > 0 {
		s.SpanH = float64(hi-lo) / 3600
	}
	s.Load = offeredLoad(s.GPUHours, float64(s.GPUs)*s.SpanH)
	s.ClusterLoad = meanClusterLoad(inst)
	for k, n := range counts {
		s.Types = append(s.Types, TypeCount{Workers: k.w, GPUs: k.g, Jobs: n})
	}
	sortTypes(s.Types)
	return s
}

// meanClusterLoad is the mean of ρ_p over the clusters where it is defined.
func meanClusterLoad(inst simcore.Instance) float64 {
	type acc struct {
		gpuSeconds float64
		lo, hi     int64
		n          int
	}
	per := make([]acc, len(inst.Clusters))
	for _, j := range inst.Jobs {
		if j.Cluster < 0 || j.Cluster >= len(per) {
			continue
		}
		a := &per[j.Cluster]
		if a.n == 0 {
			a.lo, a.hi = j.Arrival, j.Arrival
		}
		a.gpuSeconds += float64(j.GPUs) * float64(j.Duration)
		a.lo, a.hi = min(a.lo, j.Arrival), max(a.hi, j.Arrival)
		a.n++
	}
	var sum float64
	var n int
	for p, a := range per {
		if rho := offeredLoad(a.gpuSeconds, float64(inst.Clusters[p].GPUs())*float64(a.hi-a.lo)); !math.IsNaN(rho) {
			sum += rho
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func offeredLoad(demand, offered float64) float64 {
	if !(offered > 0) {
		return math.NaN()
	}
	return demand / offered
}

func sortTypes(ts []TypeCount) {
	slices.SortFunc(ts, func(a, b TypeCount) int {
		return cmp.Or(cmp.Compare(b.Jobs, a.Jobs), cmp.Compare(a.Workers, b.Workers), cmp.Compare(a.GPUs, b.GPUs))
	})
}

// Totals sums summaries into one for the whole dataset: counts, GPUs and
// GPU-hours add up, the span is the longest, the type mix is merged, and
// the load is Σ demand / Σ (GPUs × span) over the instances whose span is
// positive (NaN if none is), and the cluster load is the mean of the
// instances' defined ClusterLoad values (NaN if none is).
func Totals(ss []Summary) Summary {
	t := Summary{Instance: "total"}
	counts := map[[2]int]int{}
	var demand, offered float64
	for _, s := range ss {
		t.Clusters += s.Clusters
		t.Nodes += s.Nodes
		t.GPUs += s.GPUs
		t.Jobs += s.Jobs
		t.GPUHours += s.GPUHours
		t.SpanH = max(t.SpanH, s.SpanH)
		if s.SpanH > 0 {
			demand += s.GPUHours
			offered += float64(s.GPUs) * s.SpanH
		}
		for _, tc := range s.Types {
			counts[[2]int{tc.Workers, tc.GPUs}] += tc.Jobs
		}
		for _, g := range s.GPUTypes {
			t.GPUTypes = addTypeGPUs(t.GPUTypes, g.Type, g.GPUs)
		}
		t.Deadlines += s.Deadlines
		t.ratios = append(t.ratios, s.ratios...)
	}
	t.Speed = spreadOf(slices.Clone(t.ratios))
	t.Load = offeredLoad(demand, offered)
	var cl float64
	var ncl int
	for _, s := range ss {
		if !math.IsNaN(s.ClusterLoad) {
			cl += s.ClusterLoad
			ncl++
		}
	}
	t.ClusterLoad = math.NaN()
	if ncl > 0 {
		t.ClusterLoad = cl / float64(ncl)
	}
	for k, n := range counts {
		t.Types = append(t.Types, TypeCount{Workers: k[0], GPUs: k[1], Jobs: n})
	}
	sortTypes(t.Types)
	return t
}

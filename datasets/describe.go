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
	Instance string      `json:"instance"`
	Clusters int         `json:"clusters"`
	Nodes    int         `json:"nodes"`     // Σ_p N_p
	GPUs     int         `json:"gpus"`      // Σ_p N_p·G_p
	Jobs     int         `json:"jobs"`      //
	GPUHours float64     `json:"gpu_hours"` // Σ_j g_j·d_j / 3600
	SpanH    float64     `json:"span_h"`    // arrival span (max_j a_j − min_j a_j) / 3600
	Load     float64     `json:"-"`         // offered load; NaN when undefined (see Describe)
	Types    []TypeCount `json:"types"`     // job-type mix, most frequent first
}

// TypeCount is the number of jobs of one (workers, gpus) type.
type TypeCount struct {
	Workers int `json:"workers"`
	GPUs    int `json:"gpus"`
	Jobs    int `json:"jobs"`
}

// String renders a type as "workers×gpus", e.g. "1x8".
func (t TypeCount) String() string { return fmt.Sprintf("%dx%d", t.Workers, t.GPUs) }

// MarshalJSON writes the summary with "offered_load" as a number, or null
// when the load is undefined.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	var load *float64
	if !math.IsNaN(s.Load) && !math.IsInf(s.Load, 0) {
		load = &s.Load
	}
	return json.Marshal(struct {
		plain
		Load *float64 `json:"offered_load"`
	}{plain(s), load})
}

// Describe summarises an instance.
//
// The offered load is the GPU time the jobs demand divided by the GPU time
// the clusters offer while the jobs arrive:
//
//	ρ = Σ_j g_j·d_j / (Σ_p N_p·G_p × (max_j a_j − min_j a_j))
//
// (both in GPU-hours). ρ ≈ 1 means the arrivals alone keep every GPU busy;
// above 1 the queue must grow during the arrival window. For a cluster of the
// Table II generator with Poisson arrivals E[ρ_p] ≈ λ_p/λ_max, so a generated
// instance has ρ roughly in [load_min, load_max] (noisier for few jobs).
// When every job arrives at the same instant the span is 0 and ρ is
// undefined: Load is NaN (null in JSON).
//
// Types lists every (workers, gpus) type present, by count descending, then
// workers and gpus ascending.
func Describe(inst simcore.Instance) Summary {
	s := Summary{Instance: inst.Name, Clusters: len(inst.Clusters), Jobs: len(inst.Jobs)}
	for _, c := range inst.Clusters {
		s.Nodes += c.Nodes
		s.GPUs += c.GPUs()
	}
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
	for k, n := range counts {
		s.Types = append(s.Types, TypeCount{Workers: k.w, GPUs: k.g, Jobs: n})
	}
	sortTypes(s.Types)
	return s
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
// positive (NaN if none is).
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
	}
	t.Load = offeredLoad(demand, offered)
	for k, n := range counts {
		t.Types = append(t.Types, TypeCount{Workers: k[0], GPUs: k[1], Jobs: n})
	}
	sortTypes(t.Types)
	return t
}

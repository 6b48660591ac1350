package datasets

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/evogp/evogp/simcore"
)

// JobType is one row of Table II of the EVO-GP paper ("Types of machine
// learning jobs and their characteristics"): a job of this type has Workers
// workers using GPUs GPUs in total (GPUs/Workers per worker), a training time
// drawn from an exponential distribution of mean MeanHours, and is drawn with
// relative probability Weight among the types feasible on its cluster.
type JobType struct {
	Workers   int
	GPUs      int
	MeanHours float64
	Weight    float64
}

// JobTypes returns the 21 job types of Table II of the EVO-GP paper
// (SPEC §7), in the paper's order. The weights are the paper's relative
// sampling probabilities; they do not sum to exactly 1 and need not, since
// the generator renormalises them per cluster. A fresh slice is returned on
// every call, so callers may modify it.
func JobTypes() []JobType {
	return []JobType{
		// workers, gpus, mean hours, weight — Table II, row by row.
		{1, 1, 1.499136, 2.44e-1},
		{1, 2, 0.906435, 1.23e-1},
		{1, 4, 1.050502, 8.20e-2},
		{1, 8, 3.285060, 4.29e-1},
		{2, 2, 1.701724, 3.00e-2},
		{2, 4, 1.348965, 1.00e-3},
		{2, 8, 0.167778, 1.80e-4},
		{2, 16, 6.448247, 2.40e-2},
		{3, 24, 0.277222, 3.70e-4},
		{4, 4, 0.039333, 2.64e-4},
		{4, 32, 4.548746, 2.90e-2},
		{6, 48, 5.659565, 3.30e-3},
		{8, 8, 0.751250, 4.00e-4},
		{8, 64, 11.871677, 1.93e-2},
		{10, 80, 6.448889, 8.50e-4},
		{12, 96, 0.449074, 1.70e-4},
		{16, 16, 0.135417, 1.00e-3},
		{16, 64, 0.036111, 5.30e-5},
		{16, 128, 12.898697, 3.91e-2},
		{24, 192, 0.198611, 5.30e-5},
		{32, 256, 12.730382, 8.60e-4},
	}
}

// fitsOn reports whether a job of type t can ever run on cluster c (SPEC §3
// feasibility, via simcore.Job.FitsOn).
func (t JobType) fitsOn(c simcore.Cluster) bool {
	return simcore.Job{Workers: t.Workers, GPUs: t.GPUs}.FitsOn(c)
}

// Arrival processes of the generator.
const (
	ArrivalsPoisson = "poisson" // exponential inter-arrival gaps of rate λ_p
	ArrivalsUniform = "uniform" // a fixed inter-arrival interval Δ (paper §IV-D)
	ArrivalsBatch   = "batch"   // every job arrives at 0 (Hydra's batch submissions)
)

// maxTime bounds every time (arrival, duration, deadline, in seconds) that
// the generator produces or a reader accepts: 2^53 s, so that every time is
// exact as a float64 and arrival + duration cannot overflow int64.
const maxTime = int64(1) << 53

// maxCount bounds every count (nodes, GPUs per node, workers, GPUs,
// priority, cluster index) a reader accepts, so products such as
// ⌊G_p/w_j⌋·N_p cannot overflow.
const maxCount = int64(1)<<31 - 1

// GenSettings are the ranges of the Table II workload generator (SPEC §7).
// Each field mirrors the key of the same YAML name in configs.Generator, so
// a dataset.yaml records exactly the config that produced it.
type GenSettings struct {
	Clusters      [2]int  `yaml:"clusters"`       // clusters per instance ~ U{min..max}
	Nodes         [2]int  `yaml:"nodes"`          // N_p ~ U{min..max}, per cluster
	GPUsPerNode   int     `yaml:"gpus_per_node"`  // G_p, the same for every cluster
	JobsPerNode   float64 `yaml:"jobs_per_node"`  // jobs of cluster p = round(JobsPerNode × N_p), at least 1
	Priorities    [2]int  `yaml:"priorities"`     // u_j ~ U{min..max}
	LoadMin       float64 `yaml:"load_min"`       // λ_p ~ U[LoadMin·λ_max, LoadMax·λ_max]
	LoadMax       float64 `yaml:"load_max"`       // see LoadMin
	Arrivals      string  `yaml:"arrivals"`       // poisson | uniform
	Interval      float64 `yaml:"interval"`       // Δ in seconds, arrivals = uniform
	MinDuration   int64   `yaml:"min_duration"`   // durations are at least this (s), ≥ 1
	DurationScale float64 `yaml:"duration_scale"` // multiplies every type's mean duration

	// Heterogeneity and deadlines (SPEC §12); all off by default.

	// Jobs, when > 0, is the number of jobs per instance, shared among the
	// clusters in proportion to their GPUs (⌊Jobs·G_p/ΣG⌋, the remainder
	// one each to the first clusters); 0 = JobsPerNode × N_p per cluster.
	Jobs int `yaml:"jobs,omitempty"`
	// MaxGPUs, when > 0, keeps only the Table II types with at most this
	// many GPUs (1: single-GPU jobs, Hydra's model).
	MaxGPUs int `yaml:"max_gpus,omitempty"`
	// Types, when set, makes the instance heterogeneous: one cluster per
	// type, of the type's nodes (GPUsPerNode GPUs each; Clusters and Nodes
	// are then unused), and per-type durations from the throughput matrix.
	Types []GenType `yaml:"types,omitempty"`
	// Throughputs is the path of the throughput matrix CSV (read at
	// generation time; see ReadThroughputs). Required with Types.
	Throughputs string `yaml:"throughputs,omitempty"`
	// Deadlines gives a fraction of the jobs a deadline.
	Deadlines GenDeadlines `yaml:"deadlines,omitempty"`
}

// PaperSettings is the paper's generator (SPEC §7): 2–26 clusters of 10–100
// nodes of 8 GPUs, 10 × N_p jobs per cluster, priorities 1–3, λ_p ~
// U[λ_max/4, λ_max], Poisson arrivals, durations at least 1 s. (The
// configs package's defaults are the same; a test there checks it.)
func PaperSettings() GenSettings {
	return GenSettings{
		Clusters: [2]int{2, 26}, Nodes: [2]int{10, 100}, GPUsPerNode: 8,
		JobsPerNode: 10, Priorities: [2]int{1, 3}, LoadMin: 0.25, LoadMax: 1,
		Arrivals: ArrivalsPoisson, MinDuration: 1, DurationScale: 1,
	}
}

func finitePositive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// Validate checks every range; the messages use the config key names.
func (s GenSettings) Validate() error {
	switch {
	case s.Clusters[0] < 1 || s.Clusters[1] < s.Clusters[0]:
		return fmt.Errorf("generator.clusters = %v: need 1 ≤ min ≤ max", s.Clusters)
	case s.Nodes[0] < 1 || s.Nodes[1] < s.Nodes[0] || int64(s.Nodes[1]) > maxCount:
		return fmt.Errorf("generator.nodes = %v: need 1 ≤ min ≤ max ≤ %d", s.Nodes, maxCount)
	case s.GPUsPerNode < 1 || int64(s.GPUsPerNode) > maxCount:
		return fmt.Errorf("generator.gpus_per_node = %d: must be in 1..%d", s.GPUsPerNode, maxCount)
	case !finitePositive(s.JobsPerNode):
		return fmt.Errorf("generator.jobs_per_node = %v: must be > 0", s.JobsPerNode)
	case s.Priorities[0] < 1 || s.Priorities[1] < s.Priorities[0]:
		return fmt.Errorf("generator.priorities = %v: need 1 ≤ min ≤ max", s.Priorities)
	case !finitePositive(s.LoadMin) || !(s.LoadMax >= s.LoadMin) || math.IsInf(s.LoadMax, 0):
		return fmt.Errorf("generator.load_min/load_max = %v/%v: need 0 < min ≤ max", s.LoadMin, s.LoadMax)
	case s.Arrivals != ArrivalsPoisson && s.Arrivals != ArrivalsUniform && s.Arrivals != ArrivalsBatch:
		return fmt.Errorf("generator.arrivals = %q: must be %s, %s or %s", s.Arrivals, ArrivalsPoisson, ArrivalsUniform, ArrivalsBatch)
	case s.Arrivals == ArrivalsUniform && !finitePositive(s.Interval):
		return fmt.Errorf("generator.interval = %v: must be > 0 with uniform arrivals", s.Interval)
	case s.MinDuration < 1 || s.MinDuration > maxTime:
		return fmt.Errorf("generator.min_duration = %d: must be in 1..%d", s.MinDuration, maxTime)
	case !finitePositive(s.DurationScale):
		return fmt.Errorf("generator.duration_scale = %v: must be > 0", s.DurationScale)
	case s.Jobs < 0 || int64(s.Jobs) > maxCount:
		return fmt.Errorf("generator.jobs = %d: must be in 0..%d", s.Jobs, maxCount)
	case s.MaxGPUs < 0:
		return fmt.Errorf("generator.max_gpus = %d: must be ≥ 0", s.MaxGPUs)
	}
	if err := validateTypes(s.Types, s.Throughputs); err != nil {
		return err
	}
	return s.Deadlines.validate()
}

// jobTypes is Table II, without the types above MaxGPUs when it is set.
func (s GenSettings) jobTypes() []JobType {
	all := JobTypes()
	if s.MaxGPUs > 0 {
		all = slices.DeleteFunc(all, func(t JobType) bool { return t.GPUs > s.MaxGPUs })
	}
	return all
}

// jobCounts is the number of jobs of each cluster (see Jobs).
func (s GenSettings) jobCounts(cs []simcore.Cluster) []int {
	out := make([]int, len(cs))
	if s.Jobs == 0 {
		for p, c := range cs {
			out[p] = s.jobsFor(c.Nodes)
		}
		return out
	}
	var total int64
	for _, c := range cs {
		total += int64(c.GPUs())
	}
	given := 0
	for p, c := range cs {
		out[p] = int(int64(s.Jobs) * int64(c.GPUs()) / total)
		given += out[p]
	}
	for p := 0; given < s.Jobs; p = (p + 1) % len(cs) {
		out[p]++
		given++
	}
	return out
}

// loadThroughputs reads the throughput matrix when types are set.
func (s GenSettings) loadThroughputs() (*Throughputs, []int, error) {
	if len(s.Types) == 0 {
		return nil, nil, nil
	}
	m, err := ReadThroughputs(s.Throughputs)
	if err != nil {
		return nil, nil, err
	}
	cols, err := m.columnsOf(s.Types)
	if err != nil {
		return nil, nil, err
	}
	return m, cols, nil
}

// jobsFor is the number of jobs generated for a cluster of n nodes:
// round(JobsPerNode × n), at least 1.
func (s GenSettings) jobsFor(nodes int) int {
	return max(1, int(math.Round(s.JobsPerNode*float64(nodes))))
}

// typeMix is the renormalised job-type distribution of one cluster.
type typeMix struct {
	types []JobType // the types feasible on the cluster, in Table II order
	cum   []float64 // cumulative weights, cum[len-1] = Σ weights
	edg   float64   // E_p[d·g] in GPU-seconds, d at its nominal mean
}

// mixFor keeps the Table II types feasible on c and computes
// E_p[d·g] = Σ_k w_k·(h_k·3600·scale)·g_k / Σ_k w_k over them.
func mixFor(all []JobType, c simcore.Cluster, scale float64) (typeMix, error) {
	var m typeMix
	var total, dg float64
	for _, t := range all {
		if !t.fitsOn(c) {
			continue
		}
		total += t.Weight
		dg += t.Weight * t.MeanHours * 3600 * scale * float64(t.GPUs)
		m.types = append(m.types, t)
		m.cum = append(m.cum, total)
	}
	if len(m.types) == 0 || !(total > 0) {
		return typeMix{}, fmt.Errorf("no Table II job type fits a cluster of %d nodes × %d GPUs", c.Nodes, c.GPUsPerNode)
	}
	m.edg = dg / total
	return m, nil
}

// draw picks a type with probability weight / Σ weights.
func (m *typeMix) draw(r *rand.Rand) JobType {
	x := r.Float64() * m.cum[len(m.cum)-1]
	i, _ := slices.BinarySearchFunc(m.cum, x, func(c, x float64) int {
		if c <= x {
			return -1
		}
		return 1
	})
	return m.types[min(i, len(m.types)-1)]
}

// splitmix64 is the SplitMix64 finaliser, used to turn (seed, index) into
// well-separated PCG states.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// instanceRand is the random stream of instance index under seed: a PCG
// whose two state words are SplitMix64 hashes of (seed, index). Each instance
// owns its stream, so instances can be generated in any order.
func instanceRand(seed uint64, index int) *rand.Rand {
	a := splitmix64(seed ^ splitmix64(uint64(index)))
	b := splitmix64(a ^ 0x5851f42d4c957f2d)
	return rand.New(rand.NewPCG(a, b))
}

// SplitSeed derives the generator seed of a split from an experiment seed:
// a 64-bit FNV-1a hash of the split name mixed with seed. Generating train,
// validation and test from one config seed through SplitSeed gives three
// disjoint streams; Generate(s, SplitSeed(seed, split), n) is what
// `evogp data gen` runs.
func SplitSeed(seed uint64, split string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(split); i++ {
		h ^= uint64(split[i])
		h *= 0x100000001b3
	}
	return splitmix64(seed ^ h)
}

// InstanceName is the name of the index-th generated instance: inst-0000,
// inst-0001, … (more digits past 9999).
func InstanceName(index int) string { return fmt.Sprintf("inst-%04d", index) }

// Generate draws n instances with the Table II generator (SPEC §7).
// Instance i is GenerateInstance(s, seed, i); the instances are generated in
// parallel and the result is identical to generating them one by one.
func Generate(s GenSettings, seed uint64, n int) ([]simcore.Instance, error) {
	return GenerateContext(context.Background(), s, seed, n)
}

// GenerateContext is Generate that stops with ctx's error once ctx is
// done: no instance is started after that, so it returns within the time
// of generating one instance per worker.
func GenerateContext(ctx context.Context, s GenSettings, seed uint64, n int) ([]simcore.Instance, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("generate: %d instances requested", n)
	}
	m, cols, err := s.loadThroughputs()
	if err != nil {
		return nil, err
	}
	// Instances are made in batches, so that memory grows with the
	// instances made (not with n up front) and a cancelled run stops
	// after at most one instance per worker.
	workers := max(1, min(n, runtime.GOMAXPROCS(0)))
	batch := 64 * workers
	out := make([]simcore.Instance, 0, min(n, batch))
	part := make([]simcore.Instance, min(n, batch))
	errs := make([]error, min(n, batch))
	for lo := 0; lo < n; lo += batch {
		hi := min(lo+batch, n)
		next := make(chan int)
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for i := range next {
					part[i-lo], errs[i-lo] = generateInstance(s, m, cols, seed, i)
				}
			})
		}
	feed:
		for i := lo; i < hi; i++ {
			select {
			case next <- i:
			case <-ctx.Done():
				break feed
			}
		}
		close(next)
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("generate: %w", err)
		}
		if err := errors.Join(errs[:hi-lo]...); err != nil {
			return nil, err
		}
		out = append(out, part[:hi-lo]...)
	}
	return out, nil
}

// GenerateInstance draws instance index of the stream (s, seed). All of its
// randomness comes from instanceRand(seed, index), in this order:
//
//  1. P ~ U{Clusters}; then N_p ~ U{Nodes} for p = 0..P−1; G_p = GPUsPerNode.
//  2. For each cluster p in index order: keep the Table II types feasible on
//     p with weights renormalised; λ_max = N_p·G_p / E_p[d·g] (jobs per
//     second, E over p's type mix with d the nominal mean in seconds, so
//     λ_max is the rate that keeps p exactly busy on average); draw
//     λ_p ~ U[LoadMin·λ_max, LoadMax·λ_max] (drawn, but unused, with uniform
//     arrivals). Then for each of the round(JobsPerNode·N_p) jobs k, in
//     order: its type; its duration max(MinDuration, ⌊X⌋) with
//     X ~ Exponential(mean = hours·3600·DurationScale); its priority
//     ~ U{Priorities}; with Poisson arrivals its arrival time t_k, where
//     t_0 = 0 and t_k = t_{k−1} + E_k, E_k ~ Exponential(rate λ_p). The
//     arrival is ⌊t_k⌋ s. The user cluster s_j is p.
//  3. Uniform arrivals (the load-pressure variant of paper §IV-D) form one
//     stream for the whole instance, not one per cluster: the jobs of all
//     clusters are shuffled (Fisher–Yates from the same stream) and the
//     m-th arrives at ⌊m·Interval⌋, so the instance receives one job every
//     Δ seconds and the first at 0. The total is Σ_p round(JobsPerNode·N_p)
//     (5 clusters × 40 nodes × 5 jobs per node = 1000 jobs). No draw
//     depends on Interval, so one (seed, index) at several intervals gives
//     the same jobs in the same order, only spaced differently (common
//     random numbers for a load-pressure sweep).
//  4. The jobs of all clusters are sorted by (arrival, cluster, k) and
//     numbered 0..n−1 in that order, so job ids follow arrival order.
//
// Names are empty. Without the options of SPEC §12 deadlines are 0
// (none); with them (generator.jobs, max_gpus, types, deadlines, and batch
// arrivals):
//
//   - with Types, step 1 draws nothing: the clusters are the types, in
//     order, each of its Nodes nodes of GPUsPerNode GPUs, gpu_type = Name;
//   - MaxGPUs removes the larger Table II types before renormalising;
//   - Jobs fixes the jobs per instance (see GenSettings.Jobs);
//   - batch arrivals draw no gaps: every arrival is 0;
//   - the per-type durations and deadlines come from a second stream of
//     (seed, index) (see addExtras), so that no draw above changes.
func GenerateInstance(s GenSettings, seed uint64, index int) (simcore.Instance, error) {
	if err := s.Validate(); err != nil {
		return simcore.Instance{}, err
	}
	m, cols, err := s.loadThroughputs()
	if err != nil {
		return simcore.Instance{}, err
	}
	return generateInstance(s, m, cols, seed, index)
}

func generateInstance(s GenSettings, m *Throughputs, cols []int, seed uint64, index int) (simcore.Instance, error) {
	r := instanceRand(seed, index)
	inst := simcore.Instance{Name: InstanceName(index)}
	if len(s.Types) > 0 {
		for _, t := range s.Types {
			inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: t.Nodes, GPUsPerNode: s.GPUsPerNode, GPUType: t.Name})
		}
	} else {
		nc := s.Clusters[0] + r.IntN(s.Clusters[1]-s.Clusters[0]+1)
		inst.Clusters = make([]simcore.Cluster, nc)
		for p := range inst.Clusters {
			inst.Clusters[p] = simcore.Cluster{
				Nodes:       s.Nodes[0] + r.IntN(s.Nodes[1]-s.Nodes[0]+1),
				GPUsPerNode: s.GPUsPerNode,
			}
		}
	}
	type drawn struct {
		job simcore.Job
		k   int
	}
	var jobs []drawn
	all := s.jobTypes()
	counts := s.jobCounts(inst.Clusters)
	for p, c := range inst.Clusters {
		mix, err := mixFor(all, c, s.DurationScale)
		if err != nil {
			return simcore.Instance{}, fmt.Errorf("instance %q: cluster %d: %w", inst.Name, p, err)
		}
		lmax := float64(c.GPUs()) / mix.edg
		lambda := lmax * (s.LoadMin + (s.LoadMax-s.LoadMin)*r.Float64())
		t := 0.0
		for k := range counts[p] {
			typ := mix.draw(r)
			x := r.ExpFloat64() * typ.MeanHours * 3600 * s.DurationScale
			d := max(s.MinDuration, floorTime(x))
			u := s.Priorities[0] + r.IntN(s.Priorities[1]-s.Priorities[0]+1)
			if s.Arrivals == ArrivalsPoisson && k > 0 {
				t += r.ExpFloat64() / lambda
			}
			jobs = append(jobs, drawn{k: k, job: simcore.Job{
				Arrival:  floorTime(t),
				Cluster:  p,
				Duration: d,
				Workers:  typ.Workers,
				GPUs:     typ.GPUs,
				Priority: u,
			}})
		}
	}
	if s.Arrivals == ArrivalsUniform {
		// One stream for the whole instance: a random order of all jobs,
		// the m-th arriving at m·Δ.
		r.Shuffle(len(jobs), func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })
		for m := range jobs {
			jobs[m].job.Arrival = floorTime(float64(m) * s.Interval)
		}
	}
	slices.SortFunc(jobs, func(a, b drawn) int {
		return cmp.Or(cmp.Compare(a.job.Arrival, b.job.Arrival),
			cmp.Compare(a.job.Cluster, b.job.Cluster), cmp.Compare(a.k, b.k))
	})
	inst.Jobs = make([]simcore.Job, len(jobs))
	for i, d := range jobs {
		d.job.ID = int64(i)
		inst.Jobs[i] = d.job
	}
	addExtras(&inst, s, m, cols, seed, index)
	if err := inst.Validate(); err != nil {
		return simcore.Instance{}, fmt.Errorf("generator produced an invalid instance (a bug): %w", err)
	}
	return inst, nil
}

// floorTime is ⌊x⌋ in seconds, capped at maxTime.
func floorTime(x float64) int64 {
	if !(x < float64(maxTime)) {
		return maxTime
	}
	return int64(math.Floor(x))
}

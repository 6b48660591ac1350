package estimate

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/evogp/evogp/simcore"
)

// ErrorModel draws the multiplicative error f_j of a job's duration
// estimate, d̂_j = max(1, round(d_j·f_j)).
type ErrorModel interface {
	// Factor draws f > 0 from rng.
	Factor(rng *rand.Rand) float64
	// String names the model as ParseErrorModel accepts it.
	String() string
}

// Lognormal is f = exp(σ·Z), Z standard normal: median 1 (no bias in
// log), mean exp(σ²/2).
type Lognormal struct{ Sigma float64 }

// Factor draws exp(σ·Z).
func (l Lognormal) Factor(rng *rand.Rand) float64 { return math.Exp(l.Sigma * rng.NormFloat64()) }

func (l Lognormal) String() string { return "lognormal:" + strconv.FormatFloat(l.Sigma, 'g', -1, 64) }

// Uniform is f ~ U[1 − a, 1 + a) with 0 ≤ a < 1: mean 1.
type Uniform struct{ Spread float64 }

// Factor draws 1 − a + 2a·U.
func (u Uniform) Factor(rng *rand.Rand) float64 { return 1 - u.Spread + 2*u.Spread*rng.Float64() }

func (u Uniform) String() string { return "uniform:" + strconv.FormatFloat(u.Spread, 'g', -1, 64) }

// Empirical draws f = 1 + e with e uniform over the signed relative errors
// a method made on real series (the empirical error distribution).
type Empirical struct {
	Name   string    // what the errors were measured on, e.g. "adaptive:DIR"
	Errors []float64 // signed relative errors, each > −1
}

// Factor draws 1 + e for a uniformly chosen e.
func (e Empirical) Factor(rng *rand.Rand) float64 { return 1 + e.Errors[rng.IntN(len(e.Errors))] }

func (e Empirical) String() string { return "empirical:" + e.Name }

// ParseErrorModel parses "lognormal:SIGMA" (σ ≥ 0) or "uniform:A"
// (0 ≤ A < 1).
func ParseErrorModel(spec string) (ErrorModel, error) {
	kind, arg, ok := strings.Cut(spec, ":")
	if !ok {
		return nil, fmt.Errorf("error model %q: want lognormal:SIGMA or uniform:A", spec)
	}
	v, err := strconv.ParseFloat(arg, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("error model %q: parameter %q is not a finite number", spec, arg)
	}
	switch kind {
	case "lognormal":
		if v < 0 {
			return nil, fmt.Errorf("error model %q: sigma must be ≥ 0", spec)
		}
		return Lognormal{Sigma: v}, nil
	case "uniform":
		if v < 0 || v >= 1 {
			return nil, fmt.Errorf("error model %q: spread must be in [0, 1)", spec)
		}
		return Uniform{Spread: v}, nil
	}
	return nil, fmt.Errorf("error model %q: unknown distribution %q (want lognormal or uniform)", spec, kind)
}

// EmpiricalFrom collects the errors of method's rows into an Empirical
// model named name. It fails when there is no such row.
func EmpiricalFrom(rows []Row, method, name string) (Empirical, error) {
	e := Empirical{Name: name}
	for _, r := range rows {
		if r.Method == method {
			e.Errors = append(e.Errors, r.Error)
		}
	}
	if len(e.Errors) == 0 {
		return e, fmt.Errorf("empirical errors %s: no rows of method %q", name, method)
	}
	return e, nil
}

// FillEstimates sets Job.Estimate on every job of inst from model:
// d̂_j = max(1, round(d_j·f_j)), f_j drawn in job order from
// PCG(seed, FNV-1a(instance name)), so an instance's estimates do not
// depend on which other instances are filled or in what order. With reuse,
// a job with a Name is a recurring job: jobs sharing (name, GPU type of the
// user cluster, GPU count) share the first one's factor, as when a cached
// estimate is reused; the returned stats count those lookups (none without
// reuse or names).
func FillEstimates(inst *simcore.Instance, model ErrorModel, seed uint64, reuse bool) (CacheStats, error) {
	if e, ok := model.(Empirical); ok && len(e.Errors) == 0 {
		return CacheStats{}, fmt.Errorf("instance %q: empirical error model %s has no errors", inst.Name, e.Name)
	}
	hash := fnv.New64a()
	hash.Write([]byte(inst.Name))
	rng := rand.New(rand.NewPCG(seed, hash.Sum64()))
	cache := NewCache[float64]()
	for i := range inst.Jobs {
		j := &inst.Jobs[i]
		var f float64
		drawn := false
		var key Key
		if reuse && j.Name != "" {
			key = Key{Model: j.Name, GPUs: j.GPUs}
			if j.Cluster >= 0 && j.Cluster < len(inst.Clusters) {
				key.GPUType = inst.Clusters[j.Cluster].GPUType
			}
			f, drawn = cache.Get(key)
		}
		if !drawn {
			f = model.Factor(rng)
			if reuse && j.Name != "" {
				cache.Put(key, f)
			}
		}
		if !(f > 0) || math.IsInf(f, 0) {
			return CacheStats{}, fmt.Errorf("instance %q: job %d: error model %s drew factor %v, must be positive and finite", inst.Name, j.ID, model, f)
		}
		est := math.Round(float64(j.Duration) * f)
		if est > math.MaxInt64/2 {
			return CacheStats{}, fmt.Errorf("instance %q: job %d: estimate %v s overflows", inst.Name, j.ID, est)
		}
		j.Estimate = max(1, int64(est))
	}
	return cache.Stats(), nil
}

// HasEstimates reports whether any job of inst carries an estimate.
func HasEstimates(inst *simcore.Instance) bool {
	for _, j := range inst.Jobs {
		if j.Estimate > 0 {
			return true
		}
	}
	return false
}

// ClearEstimates sets every Job.Estimate of inst to 0 (schedulers see true
// durations).
func ClearEstimates(inst *simcore.Instance) {
	for i := range inst.Jobs {
		inst.Jobs[i].Estimate = 0
	}
}

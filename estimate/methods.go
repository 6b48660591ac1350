package estimate

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// The estimation methods, by the names the CLI and results use.
const (
	MethodAdaptive = "adaptive"
	MethodHead     = "head"
	MethodRandom   = "random"
)

// Methods lists the estimation methods in report order.
func Methods() []string { return []string{MethodAdaptive, MethodHead, MethodRandom} }

// Options are the parameters of the three methods. DefaultOptions gives
// the documented defaults.
type Options struct {
	// Gamma is γ, the adaptive method's stability threshold on the
	// relative change δ_i (default 0.1: consecutive iterations within 10%).
	Gamma float64
	// K is k, how many consecutive δ_i < γ declare stability (default 5).
	K int
	// SampleIters is i_s, the iterations the adaptive method samples once
	// stable (default 10).
	SampleIters int
	// Head is h, the iterations the head and random methods use
	// (default 10, the same budget as i_s).
	Head int
	// Prefix is P, the most iterations any method may observe: the
	// profiling budget (default 50; the shortest Chronus series has 100).
	// A series shorter than P is observed up to its end.
	Prefix int
	// Seed seeds the random method; its draws for a series come from
	// PCG(Seed, FNV-1a(series name)), so they do not depend on which other
	// series are estimated or in what order (default 1).
	Seed uint64
}

// DefaultOptions returns γ = 0.1, k = 5, i_s = 10, h = 10, P = 50, seed 1.
func DefaultOptions() Options {
	return Options{Gamma: 0.1, K: 5, SampleIters: 10, Head: 10, Prefix: 50, Seed: 1}
}

// Validate checks the options of every method (ValidateFor(Methods()...)).
func (o Options) Validate() error { return o.ValidateFor(Methods()...) }

// ValidateFor checks the options the given methods use: for adaptive γ > 0,
// k ≥ 1, i_s ≥ 1 and P ≥ k + 1, P ≥ i_s; for head and random h ≥ 1 and
// P ≥ h. A method's limits do not apply when it is not run (head alone
// accepts a prefix shorter than adaptive's k + 1).
func (o Options) ValidateFor(methods ...string) error {
	var adaptive, head bool
	for _, m := range methods {
		adaptive = adaptive || m == MethodAdaptive
		head = head || m == MethodHead || m == MethodRandom
	}
	switch {
	case adaptive && (!(o.Gamma > 0) || o.Gamma != o.Gamma):
		return fmt.Errorf("estimate options: gamma = %v, must be > 0", o.Gamma)
	case adaptive && o.K < 1:
		return fmt.Errorf("estimate options: k = %d, must be ≥ 1", o.K)
	case adaptive && o.SampleIters < 1:
		return fmt.Errorf("estimate options: sample iterations = %d, must be ≥ 1", o.SampleIters)
	case head && o.Head < 1:
		return fmt.Errorf("estimate options: head = %d, must be ≥ 1", o.Head)
	case head && o.Prefix < o.Head:
		return fmt.Errorf("estimate options: prefix = %d, must be ≥ head (%d)", o.Prefix, o.Head)
	case adaptive && (o.Prefix < o.K+1 || o.Prefix < o.SampleIters):
		return fmt.Errorf("estimate options: prefix = %d, must be ≥ k+1 (%d) and ≥ sample iterations (%d) for the adaptive method", o.Prefix, o.K+1, o.SampleIters)
	}
	return nil
}

// Need is the fewest iterations a series must have for method: h for head
// and random; max(k+1, i_s) for adaptive (k+1 to see k changes, i_s to
// sample). Unknown methods need 0.
func (o Options) Need(method string) int {
	switch method {
	case MethodAdaptive:
		return max(o.K+1, o.SampleIters)
	case MethodHead, MethodRandom:
		return o.Head
	}
	return 0
}

// Result is one method's estimate of one series.
type Result struct {
	Method   string
	Estimate float64 // T̂, the estimated total time of all n iterations
	// OverheadIters is how many leading iterations the job ran for the
	// method to observe what it used; OverheadSeconds is their total time.
	OverheadIters   int
	OverheadSeconds float64

	// Adaptive only (1-based iterations): StableAt is the first stable
	// iteration s (0 when the fallback was used), ColdIters is i_b and
	// ColdSeconds t_b, and the sample covers SampleIters = i_s iterations
	// from SampleFrom taking SampleSeconds = t_s.
	StableAt      int
	ColdIters     int
	ColdSeconds   float64
	SampleFrom    int
	SampleIters   int
	SampleSeconds float64
	// Fallback is set when the series never stabilised within the prefix.
	Fallback bool
}

// Estimate runs the named method on s.
func Estimate(s *Series, method string, o Options) (Result, error) {
	var r Result
	var err error
	switch method {
	case MethodAdaptive:
		r, err = Adaptive(s, o)
	case MethodHead:
		r, err = Head(s, o)
	case MethodRandom:
		r, err = Random(s, o)
	default:
		return Result{}, fmt.Errorf("estimate: unknown method %q (want adaptive, head or random)", method)
	}
	return finite(s, r, err)
}

// finite refuses a result whose estimate or overhead overflowed: with a
// finite total, n × (a mean of some times) can still exceed float64.
func finite(s *Series, r Result, err error) (Result, error) {
	if err != nil {
		return r, err
	}
	for _, v := range []float64{r.Estimate, r.OverheadSeconds, r.ColdSeconds, r.SampleSeconds} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return Result{}, fmt.Errorf("%s: %w: the %s estimate overflows float64 (%d iterations of times up to %v)", s.where(-1), ErrBadSeries, r.Method, len(s.Times), slices.Max(s.Times))
		}
	}
	return r, nil
}

// prepare validates the options and the series and checks that the series
// has the iterations method needs; it returns the observable prefix length
// min(P, n).
func prepare(s *Series, method string, o Options) (int, error) {
	if err := o.ValidateFor(method); err != nil {
		return 0, err
	}
	if err := s.Validate(); err != nil {
		return 0, err
	}
	n := len(s.Times)
	if need := o.Need(method); n < need {
		return 0, fmt.Errorf("%s: %w: %d iterations, the %s method needs at least %d", s.where(-1), ErrBadSeries, n, method, need)
	}
	return min(o.Prefix, n), nil
}

// Adaptive is Hydra's adaptive-sampling estimate (see the package
// documentation for the definition and the fallback). With 1-based
// iterations: it scans δ_i for i = 2 … P; when δ_{i−k+1} … δ_i are all
// < γ, the first stable iteration is s = i − k, i_b = s − 1 and
// t_b = Σ_{j<s} t_j; the sample is iterations s … min(s+i_s−1, P) (cut
// short by the prefix when it would pass it). The job has run
// max(i, s + i_s − 1) iterations by the time the estimate is known.
func Adaptive(s *Series, o Options) (Result, error) {
	p, err := prepare(s, MethodAdaptive, o)
	if err != nil {
		return Result{}, err
	}
	t := s.Times
	n := len(t)
	r := Result{Method: MethodAdaptive}
	run, detected := 0, 0 // detected: 1-based iteration at which stability is declared
	for i := 2; i <= p; i++ {
		prev, cur := t[i-2], t[i-1]
		delta := (cur - prev) / prev
		if delta < 0 {
			delta = -delta
		}
		if delta < o.Gamma {
			run++
		} else {
			run = 0
		}
		if run == o.K {
			detected = i
			break
		}
	}
	var from int // first sampled iteration (1-based)
	if detected > 0 {
		r.StableAt = detected - o.K
		from = r.StableAt
	} else {
		r.Fallback = true
		from = p - o.SampleIters + 1
	}
	to := min(from+o.SampleIters-1, p)
	r.ColdIters = from - 1
	r.ColdSeconds = sum(t[:from-1])
	r.SampleFrom = from
	r.SampleIters = to - from + 1
	r.SampleSeconds = sum(t[from-1 : to])
	r.OverheadIters = max(detected, to)
	r.OverheadSeconds = sum(t[:r.OverheadIters])
	r.Estimate = r.ColdSeconds + float64(n-r.ColdIters)*r.SampleSeconds/float64(r.SampleIters)
	return r, nil
}

// Head extrapolates the first h iterations: T̂ = n·(Σ_{i≤h} t_i)/h.
func Head(s *Series, o Options) (Result, error) {
	if _, err := prepare(s, MethodHead, o); err != nil {
		return Result{}, err
	}
	h := o.Head
	head := sum(s.Times[:h])
	return Result{
		Method:          MethodHead,
		Estimate:        float64(len(s.Times)) * head / float64(h),
		OverheadIters:   h,
		OverheadSeconds: head,
	}, nil
}

// RandomDraws returns the h distinct 1-based iterations the random method
// draws from 1 … p for a series named name: the first h positions of a
// Fisher–Yates shuffle of 1 … p driven by PCG(seed, FNV-1a(name)), in
// drawing order.
func RandomDraws(name string, seed uint64, h, p int) []int {
	hash := fnv.New64a()
	hash.Write([]byte(name))
	rng := rand.New(rand.NewPCG(seed, hash.Sum64()))
	idx := make([]int, p)
	for i := range idx {
		idx[i] = i + 1
	}
	for i := 0; i < h; i++ {
		j := i + rng.IntN(p-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	return idx[:h]
}

// Random extrapolates h iterations drawn without replacement from the
// observable prefix 1 … min(P, n): T̂ = n · (mean of the drawn times). Its
// overhead is the prefix up to the largest iteration drawn, which the job
// must run to reach it.
func Random(s *Series, o Options) (Result, error) {
	p, err := prepare(s, MethodRandom, o)
	if err != nil {
		return Result{}, err
	}
	draws := RandomDraws(s.Name, o.Seed, o.Head, p)
	var drawn float64
	last := 0
	for _, i := range draws { // drawing order: a fixed summation order
		drawn += s.Times[i-1]
		last = max(last, i)
	}
	return Result{
		Method:          MethodRandom,
		Estimate:        float64(len(s.Times)) * drawn / float64(o.Head),
		OverheadIters:   last,
		OverheadSeconds: sum(s.Times[:last]),
	}, nil
}

package estimate

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Row is one method's estimate of one series beside the truth.
type Row struct {
	File   string // the series as the output names it
	Series *Series
	Result
	Actual float64 // T = Σ t_i
	// Error is the signed relative error (T̂ − T)/T.
	Error float64
	// Cached is set when the estimate was reused from an earlier series
	// with the same key (see EvaluateOptions.CacheKey); its overhead is 0.
	Cached bool
}

// APE is the absolute percentage error 100·|T̂ − T|/T.
func (r Row) APE() float64 { return 100 * math.Abs(r.Error) }

// KeyFields selects which fields of a Key identify a recurring job.
type KeyFields struct{ Model, Config, GPUType, GPUs bool }

// Project keeps the selected fields of k and blanks the others.
func (f KeyFields) Project(k Key) Key {
	var out Key
	if f.Model {
		out.Model = k.Model
	}
	if f.Config {
		out.Config = k.Config
	}
	if f.GPUType {
		out.GPUType = k.GPUType
	}
	if f.GPUs {
		out.GPUs = k.GPUs
	}
	return out
}

// EvaluateOptions configures Evaluate.
type EvaluateOptions struct {
	Options
	Methods []string // default Methods()
	// CacheKey, when non-nil, turns the recurring-job cache on: series are
	// taken in order and one whose projected key was seen before reuses
	// that earlier estimate of the total (per method), with no overhead.
	CacheKey *KeyFields
}

// Evaluation is the outcome of Evaluate.
type Evaluation struct {
	Rows  []Row                 // series-major, methods in the given order
	Cache map[string]CacheStats // per method; nil without a cache
}

// Evaluate runs every method on every series (files[i] names series[i] in
// the rows). The first error (a series too short for a method, bad
// options) stops it; ctx cancels between series.
func Evaluate(ctx context.Context, series []*Series, files []string, o EvaluateOptions) (Evaluation, error) {
	if len(files) != len(series) {
		return Evaluation{}, fmt.Errorf("estimate: %d series but %d file names", len(series), len(files))
	}
	methods := o.Methods
	if len(methods) == 0 {
		methods = Methods()
	}
	for _, m := range methods {
		if !slices.Contains(Methods(), m) {
			return Evaluation{}, fmt.Errorf("estimate: unknown method %q (want adaptive, head or random)", m)
		}
	}
	if err := o.Options.ValidateFor(methods...); err != nil {
		return Evaluation{}, err
	}
	var caches map[string]*Cache[float64]
	if o.CacheKey != nil {
		caches = map[string]*Cache[float64]{}
		for _, m := range methods {
			caches[m] = NewCache[float64]()
		}
	}
	ev := Evaluation{Rows: make([]Row, 0, len(series)*len(methods))}
	for i, s := range series {
		if err := ctx.Err(); err != nil {
			return Evaluation{}, err
		}
		actual := s.Total()
		for _, m := range methods {
			row := Row{File: files[i], Series: s, Actual: actual}
			if caches != nil {
				k := o.CacheKey.Project(s.Key)
				if est, ok := caches[m].Get(k); ok {
					row.Result = Result{Method: m, Estimate: est}
					row.Cached = true
				}
			}
			if !row.Cached {
				res, err := Estimate(s, m, o.Options)
				if err != nil {
					return Evaluation{}, err
				}
				row.Result = res
				if caches != nil {
					caches[m].Put(o.CacheKey.Project(s.Key), res.Estimate)
				}
			}
			row.Error = (row.Estimate - actual) / actual
			ev.Rows = append(ev.Rows, row)
		}
	}
	if caches != nil {
		ev.Cache = map[string]CacheStats{}
		for m, c := range caches {
			ev.Cache[m] = c.Stats()
		}
	}
	return ev, nil
}

// Summary aggregates one method's rows.
type Summary struct {
	Method string
	N      int
	// Absolute percentage error: mean, median and 90th percentile
	// (quantiles by linear interpolation between order statistics,
	// Hyndman & Fan type 7).
	MeanAPE, MedianAPE, P90APE float64
	// Overhead over the rows that profiled (cached rows have none): mean
	// iterations; mean and max seconds over those of them whose series is
	// in seconds (TimedRows of them; normalised series have no seconds).
	MeanOverheadIters                       float64
	MeanOverheadSeconds, MaxOverheadSeconds float64
	TimedRows                               int

	Fallbacks int // adaptive rows that never stabilised within the prefix
	Cached    int // rows whose estimate came from the cache
}

// Summarize aggregates rows per method, in order of first appearance.
func Summarize(rows []Row) []Summary {
	var order []string
	by := map[string][]Row{}
	for _, r := range rows {
		if _, ok := by[r.Method]; !ok {
			order = append(order, r.Method)
		}
		by[r.Method] = append(by[r.Method], r)
	}
	out := make([]Summary, 0, len(order))
	for _, m := range order {
		rs := by[m]
		s := Summary{Method: m, N: len(rs)}
		apes := make([]float64, len(rs))
		profiled := 0
		for i, r := range rs {
			apes[i] = r.APE()
			s.MeanAPE += apes[i]
			if r.Fallback {
				s.Fallbacks++
			}
			if r.Cached {
				s.Cached++
				continue
			}
			profiled++
			s.MeanOverheadIters += float64(r.OverheadIters)
			if r.Series == nil || r.Series.Unit != UnitNormalised {
				s.TimedRows++
				s.MeanOverheadSeconds += r.OverheadSeconds
				s.MaxOverheadSeconds = max(s.MaxOverheadSeconds, r.OverheadSeconds)
			}
		}
		s.MeanAPE /= float64(len(rs))
		if profiled > 0 {
			s.MeanOverheadIters /= float64(profiled)
		}
		if s.TimedRows > 0 {
			s.MeanOverheadSeconds /= float64(s.TimedRows)
		}
		slices.Sort(apes)
		s.MedianAPE = Quantile(apes, 0.5)
		s.P90APE = Quantile(apes, 0.9)
		out = append(out, s)
	}
	return out
}

// Quantile is the p-quantile of the ascending xs by linear interpolation
// between order statistics (type 7): with h = (n−1)p, x_⌊h⌋ +
// (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋). NaN for an empty slice.
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

package experiment

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/simcore"
)

// EstimateSource is a parsed --estimates value: which durations schedulers
// see (SPEC §14).
type EstimateSource struct {
	Kind  string // none, column, model
	Model estimate.ErrorModel
	// Method and Dir, for empirical errors: measured when applied, with
	// Method on the series in Dir.
	Method, Dir string
}

// ParseEstimateSource parses the --estimates value.
func ParseEstimateSource(spec string) (EstimateSource, error) {
	switch {
	case spec == "" || spec == "none":
		return EstimateSource{Kind: "none"}, nil
	case spec == "column":
		return EstimateSource{Kind: "column"}, nil
	case strings.HasPrefix(spec, "noise:"):
		m, err := estimate.ParseErrorModel(strings.TrimPrefix(spec, "noise:"))
		if err != nil {
			return EstimateSource{}, fmt.Errorf("--estimates: %w", err)
		}
		return EstimateSource{Kind: "model", Model: m}, nil
	case strings.HasPrefix(spec, "empirical:"):
		method, dir, ok := strings.Cut(strings.TrimPrefix(spec, "empirical:"), ":")
		if !ok || dir == "" {
			return EstimateSource{}, fmt.Errorf("--estimates %q: want empirical:METHOD:DIR", spec)
		}
		if method != estimate.MethodAdaptive && method != estimate.MethodHead && method != estimate.MethodRandom {
			return EstimateSource{}, fmt.Errorf("--estimates %q: unknown method %q (want adaptive, head or random)", spec, method)
		}
		return EstimateSource{Kind: "model", Method: method, Dir: dir}, nil
	}
	return EstimateSource{}, fmt.Errorf("--estimates %q: want none, column, noise:lognormal:SIGMA, noise:uniform:A or empirical:METHOD:DIR", spec)
}

// FillEstimates sets Job.Estimate on every instance as src says: none
// clears any estimate; column keeps the dataset's and fails when no job has
// one; the error models draw d̂ = max(1, round(d·f)). It applies src to insts and returns a one-line summary ("" for
// none).
func FillEstimates(ctx context.Context, src EstimateSource, seed uint64, reuse bool, insts []simcore.Instance) (string, error) {
	switch src.Kind {
	case "none":
		for i := range insts {
			estimate.ClearEstimates(&insts[i])
		}
		return "", nil
	case "column":
		for i := range insts {
			if estimate.HasEstimates(&insts[i]) {
				return "estimates: the dataset's estimate column", nil
			}
		}
		return "", fmt.Errorf("--estimates column: no job of the dataset has an estimate")
	}
	model := src.Model
	if src.Dir != "" {
		series, files, err := estimate.ReadDir(src.Dir)
		if err != nil {
			return "", fmt.Errorf("--estimates empirical: %w", err)
		}
		ev, err := estimate.Evaluate(ctx, series, files, estimate.EvaluateOptions{Options: estimate.DefaultOptions(), Methods: []string{src.Method}})
		if err != nil {
			return "", fmt.Errorf("--estimates empirical: %w", err)
		}
		if model, err = estimate.EmpiricalFrom(ev.Rows, src.Method, src.Method+":"+src.Dir); err != nil {
			return "", err
		}
	}
	var stats estimate.CacheStats
	var sumAbs float64
	jobs := 0
	for i := range insts {
		st, err := estimate.FillEstimates(&insts[i], model, seed, reuse)
		if err != nil {
			return "", err
		}
		stats.Hits += st.Hits
		stats.Misses += st.Misses
		for _, j := range insts[i].Jobs {
			sumAbs += math.Abs(float64(j.Estimate-j.Duration)) / float64(j.Duration)
			jobs++
		}
	}
	line := fmt.Sprintf("estimates: %s, %d jobs, mean |d̂ − d|/d = %.3f", model, jobs, sumAbs/float64(max(jobs, 1)))
	if reuse {
		line += fmt.Sprintf(", recurring-job reuse %d of %d named jobs (hit rate %.1f%%)", stats.Hits, stats.Lookups(), 100*stats.HitRate())
	}
	return line, nil
}

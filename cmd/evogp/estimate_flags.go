package main

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/simcore"
)

// estimatesFlags are the flags that choose the job durations schedulers see
// (SPEC §14). A command adds them to its flags and calls applyEstimates on
// the instances it simulates.
func estimatesFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "estimates", Value: "none", Usage: "durations schedulers see: none (the truth) | column (the dataset's estimate column) | " +
			"noise:lognormal:SIGMA | noise:uniform:A (d̂ = d·f) | empirical:METHOD:DIR (f = 1 + an error of METHOD on the series in DIR)"},
		&cli.Uint64Flag{Name: "estimates-seed", Value: 1, Usage: "seed of the estimate draws (per instance: PCG(seed, instance name))"},
		&cli.BoolFlag{Name: "estimates-reuse", Usage: "recurring jobs (same name, GPU type, GPU count) reuse the first one's estimate error"},
	}
}

// estimateSource is a parsed --estimates value.
type estimateSource struct {
	kind  string // none, column, model
	model estimate.ErrorModel
	// empirical: measured lazily on dir with method.
	method, dir string
}

// parseEstimateSource parses the --estimates value.
func parseEstimateSource(spec string) (estimateSource, error) {
	switch {
	case spec == "" || spec == "none":
		return estimateSource{kind: "none"}, nil
	case spec == "column":
		return estimateSource{kind: "column"}, nil
	case strings.HasPrefix(spec, "noise:"):
		m, err := estimate.ParseErrorModel(strings.TrimPrefix(spec, "noise:"))
		if err != nil {
			return estimateSource{}, fmt.Errorf("--estimates: %w", err)
		}
		return estimateSource{kind: "model", model: m}, nil
	case strings.HasPrefix(spec, "empirical:"):
		method, dir, ok := strings.Cut(strings.TrimPrefix(spec, "empirical:"), ":")
		if !ok || dir == "" {
			return estimateSource{}, fmt.Errorf("--estimates %q: want empirical:METHOD:DIR", spec)
		}
		if method != estimate.MethodAdaptive && method != estimate.MethodHead && method != estimate.MethodRandom {
			return estimateSource{}, fmt.Errorf("--estimates %q: unknown method %q (want adaptive, head or random)", spec, method)
		}
		return estimateSource{kind: "model", method: method, dir: dir}, nil
	}
	return estimateSource{}, fmt.Errorf("--estimates %q: want none, column, noise:lognormal:SIGMA, noise:uniform:A or empirical:METHOD:DIR", spec)
}

// applyEstimates sets Job.Estimate on every instance as the estimates
// flags say. none clears any estimate; column keeps the dataset's and fails
// when no job has one; the error models draw d̂ = max(1, round(d·f)).
func applyEstimates(c *cli.Context, insts []simcore.Instance) error {
	src, err := parseEstimateSource(c.String("estimates"))
	if err != nil {
		return err
	}
	summary, err := fillEstimates(c.Context, src, c.Uint64("estimates-seed"), c.Bool("estimates-reuse"), insts)
	if err != nil {
		return err
	}
	if summary != "" && !c.Bool("quiet") {
		fmt.Fprintln(c.App.ErrWriter, summary)
	}
	return nil
}

// fillEstimates applies src to insts and returns a one-line summary ("" for
// none).
func fillEstimates(ctx context.Context, src estimateSource, seed uint64, reuse bool, insts []simcore.Instance) (string, error) {
	switch src.kind {
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
	model := src.model
	if src.dir != "" {
		series, files, err := estimate.ReadDir(src.dir)
		if err != nil {
			return "", fmt.Errorf("--estimates empirical: %w", err)
		}
		ev, err := estimate.Evaluate(ctx, series, files, estimate.EvaluateOptions{Options: estimate.DefaultOptions(), Methods: []string{src.method}})
		if err != nil {
			return "", fmt.Errorf("--estimates empirical: %w", err)
		}
		if model, err = estimate.EmpiricalFrom(ev.Rows, src.method, src.method+":"+src.dir); err != nil {
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

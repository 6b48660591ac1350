package parallel

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// For calls fn(i) for i = 0..n−1 on min(workers, n) goroutines (workers ≤ 0
// means GOMAXPROCS) and waits for them. fn's error for index i is kept; For
// returns ctx's error if ctx was cancelled (no new index starts after
// that), otherwise the error of the lowest failed index, or nil.
//
// The workers run in an errgroup.Group, each taking the next index from a
// shared counter. Two parts of errgroup are deliberately not used: its
// error (the first to happen in time) and errgroup.WithContext (which
// cancels the rest at the first error), because callers rely on every
// index running and on the reported error being the lowest index's, which
// then does not depend on the number of workers or on timing; and
// SetLimit with one g.Go per index, which costs a goroutine per index
// (about 24× the overhead of the shared counter in BenchmarkFor,
// docs/PERFORMANCE.md).
func For(ctx context.Context, n, workers int, fn func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	var next atomic.Int64
	var g errgroup.Group
	for range min(workers, n) {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return nil
				}
				errs[i] = fn(i)
			}
		})
	}
	_ = g.Wait() // every worker returns nil; the errors are in errs
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

package parallel

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// For calls fn(i) for i = 0..n−1 on min(workers, n) goroutines (workers ≤ 0
// means GOMAXPROCS) and waits for them. fn's error for index i is kept; For
// returns ctx's error if ctx was cancelled (no new index starts after
// that), otherwise the error of the lowest failed index, or nil.
//
// The goroutines are an errgroup.Group with a limit of workers. Its own
// error (the first to happen in time) and errgroup.WithContext (which
// cancels the rest at the first error) are not used: callers rely on every
// index running and on the reported error being the lowest index's, which
// does not depend on the number of workers or on timing.
func For(ctx context.Context, n, workers int, fn func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	var g errgroup.Group
	g.SetLimit(max(1, min(workers, n)))
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if ctx.Err() == nil {
				errs[i] = fn(i)
			}
			return nil
		})
	}
	_ = g.Wait() // every function returns nil; errors are in errs
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

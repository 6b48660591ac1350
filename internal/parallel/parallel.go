package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for i = 0..n−1 on min(workers, n) goroutines (workers ≤ 0
// means GOMAXPROCS) and waits for them. fn's error for index i is kept; For
// returns ctx's error if ctx was cancelled (no new index starts after
// that), otherwise the error of the lowest failed index, or nil.
func For(ctx context.Context, n, workers int, fn func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				errs[i] = fn(i)
			}
		})
	}
	wg.Wait()
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

package parallel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

func TestForRunsEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 64} {
		seen := make([]int32, 100)
		if err := For(context.Background(), len(seen), workers, func(i int) error {
			atomic.AddInt32(&seen[i], 1)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("workers %d: index %d ran %d times", workers, i, c)
			}
		}
	}
}

func TestForReturnsLowestError(t *testing.T) {
	err := For(context.Background(), 50, 4, func(i int) error {
		if i == 7 || i == 30 {
			return fmt.Errorf("task %d", i)
		}
		return nil
	})
	if err == nil || err.Error() != "task 7" {
		t.Fatalf("got %v, want task 7", err)
	}
}

func TestForStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := For(ctx, 1000, 1, func(i int) error {
		if ran.Add(1) == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if ran.Load() != 5 {
		t.Fatalf("ran %d tasks after cancel at 5", ran.Load())
	}
}

// Every index runs although an earlier one failed, and the lowest failing
// index wins whatever the order the failures happen in.
func TestForRunsAllAfterError(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		var ran atomic.Int32
		err := For(context.Background(), 40, workers, func(i int) error {
			ran.Add(1)
			if i%10 == 3 {
				return fmt.Errorf("task %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "task 3" || ran.Load() != 40 {
			t.Fatalf("workers %d: err %v, ran %d", workers, err, ran.Load())
		}
	}
	if err := For(context.Background(), 0, 4, func(int) error { return errors.New("never") }); err != nil {
		t.Fatal(err)
	}
}

// At most workers calls run at once.
func TestForBoundsConcurrency(t *testing.T) {
	var cur, peak atomic.Int32
	if err := For(context.Background(), 200, 3, func(int) error {
		c := cur.Add(1)
		for {
			p := peak.Load()
			if c <= p || peak.CompareAndSwap(p, c) {
				break
			}
		}
		runtime.Gosched()
		cur.Add(-1)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if peak.Load() > 3 {
		t.Fatalf("peak concurrency %d > 3", peak.Load())
	}
}

// The pool is errgroup's, pinned as a direct requirement of the module so
// that an upgrade of another module cannot move it silently.
func TestErrgroupIsDirectDependency(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "golang.org/x/sync" {
			if strings.Contains(line, "// indirect") {
				t.Fatalf("go.mod: %q is marked indirect", strings.TrimSpace(line))
			}
			return
		}
	}
	t.Fatal("go.mod does not require golang.org/x/sync")
}

// BenchmarkFor is the pool's own cost: 1000 near-empty tasks on 2 workers
// (a generation's evaluations are ~1000 simulations of milliseconds each).
func BenchmarkFor(b *testing.B) {
	var sink atomic.Int64
	for b.Loop() {
		if err := For(context.Background(), 1000, 2, func(i int) error {
			sink.Add(int64(i))
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}

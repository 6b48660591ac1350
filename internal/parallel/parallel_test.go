package parallel

import (
	"context"
	"errors"
	"fmt"
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

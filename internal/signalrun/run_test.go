package signalrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"
)

type codeError int

func (e codeError) Error() string { return fmt.Sprintf("code %d", int(e)) }
func (e codeError) ExitCode() int { return int(e) }

func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		sig  os.Signal
		want int
	}{
		{nil, nil, 0},
		{os.ErrNotExist, nil, 1},
		{os.ErrNotExist, os.Interrupt, 130},
		{nil, syscall.SIGTERM, 143},
		{fmt.Errorf("wrapped: %w", codeError(3)), nil, 3},
		{codeError(0), nil, 1},
		{codeError(3), syscall.SIGTERM, 143},
	} {
		if got := ExitCode(c.err, c.sig); got != c.want {
			t.Errorf("ExitCode(%v, %v) = %d, want %d", c.err, c.sig, got, c.want)
		}
	}
}

// A SIGTERM sent to the process cancels f's context, is reported, and
// does not end the test binary.
func TestRunCancelsOnSignal(t *testing.T) {
	sig, err := Run(context.Background(), func(ctx context.Context) error {
		if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
			return err
		}
		<-ctx.Done()
		return ctx.Err()
	})
	if sig != syscall.SIGTERM || !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, %v; want SIGTERM, context.Canceled", sig, err)
	}
	sig, err = Run(context.Background(), func(context.Context) error { return nil })
	if sig != nil || err != nil {
		t.Fatalf("Run without a signal = %v, %v", sig, err)
	}
}

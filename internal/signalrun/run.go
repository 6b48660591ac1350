package signalrun

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// Run calls f with a context that the first SIGINT or SIGTERM cancels;
// after that signal, the signals have their default effect again, so a
// second one ends the program at once. It returns the signal received
// (nil if none) and f's error.
func Run(ctx context.Context, f func(context.Context) error) (os.Signal, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	received := make(chan os.Signal, 1)
	go func() {
		if s, ok := <-sigs; ok {
			received <- s
			signal.Stop(sigs) // a second signal has its default effect
			cancel()
		}
	}()
	err := f(ctx)
	signal.Stop(sigs)
	close(sigs)
	var sig os.Signal
	select {
	case sig = <-received:
	default:
	}
	return sig, err
}

// exitCoder is an error that carries its own exit status.
type exitCoder interface{ ExitCode() int }

// ExitCode is the exit status of a command that returned err after the
// signal sig (nil if none) arrived: the shell's convention 128 + the
// signal number after a signal (130 for SIGINT, 143 for SIGTERM), else 0
// on success, an error's own non-zero ExitCode() if it has one, and 1.
func ExitCode(err error, sig os.Signal) int {
	switch sig {
	case os.Interrupt:
		return 128 + int(syscall.SIGINT)
	case syscall.SIGTERM:
		return 128 + int(syscall.SIGTERM)
	}
	if err != nil {
		var ec exitCoder
		if errors.As(err, &ec) && ec.ExitCode() != 0 {
			return ec.ExitCode()
		}
		return 1
	}
	return 0
}

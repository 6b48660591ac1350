package slurmcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// Runner runs one Slurm command and returns what it printed on stdout.
// A command that fails returns an error that names the command line and
// carries its stderr.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) ([]byte, error)
}

// ErrNotInstalled is wrapped by the error of a command that is not on
// PATH.
var ErrNotInstalled = errors.New("not installed")

// Exec runs the commands as processes found on PATH.
type Exec struct{}

// Run implements Runner.
func (Exec) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w on PATH", name, ErrNotInstalled)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), &CommandError{Line: Line(name, args...), Err: err, Stderr: strings.TrimSpace(stderr.String())}
	}
	return stdout.Bytes(), nil
}

// Installed reports whether name is on PATH.
func Installed(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// CommandError is a Slurm command that ran and failed.
type CommandError struct {
	Line   string // the command line
	Err    error  // the exit status
	Stderr string // what it printed on stderr, trimmed
}

func (e *CommandError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("%s: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v: %s", e.Line, e.Err, e.Stderr)
}

func (e *CommandError) Unwrap() error { return e.Err }

// Line is the command line name args… as a shell would show it (words
// with spaces or quotes single-quoted).
func Line(name string, args ...string) string {
	words := []string{name}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"|&;<>()$`\\*?") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// Fake is the Runner of tests: it records every call and answers it with
// Handle (nil: every command prints nothing and succeeds). It is safe for
// concurrent use.
type Fake struct {
	Handle func(name string, args []string) ([]byte, error)

	mu    sync.Mutex
	calls []string
}

// Run implements Runner.
func (f *Fake) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.calls = append(f.calls, Line(name, args...))
	f.mu.Unlock()
	if f.Handle == nil {
		return nil, nil
	}
	return f.Handle(name, args)
}

// Calls are the command lines run so far, in order.
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

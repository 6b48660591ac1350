package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// moduleRoot is the directory holding go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// binDir holds the evogp binary of the tests that run it; TestMain makes
// and removes it.
var binDir string

// builtEvogp is the evogp binary, built once on first use.
var builtEvogp = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "evogp")
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/evogp")
	cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
})

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "evogp-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildEvogp returns the evogp binary, building it on first use.
func buildEvogp(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the evogp binary")
	}
	bin, err := builtEvogp()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// copyModule copies the module's source tree (no .git, no outputs) to dst.
func copyModule(t *testing.T, dst string) {
	t.Helper()
	root := moduleRoot(t)
	skip := map[string]bool{".git": true, "runs": true, "out": true, "data": true, "bin": true, "tmp": true, "evogp": true}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel != "." && !strings.Contains(rel, string(filepath.Separator)) && skip[rel] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// runIn runs name with args in dir and fails the test on error.
func runIn(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := tryIn(dir, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// tryIn runs name with args in dir and returns its combined output.
func tryIn(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Outputs written inside the module — a learning run, a sweep and an
// evaluation, in their default places — never break the module's own
// tooling, and git ignores them.
func TestOutputsInsideTheModuleKeepGoVetClean(t *testing.T) {
	bin := buildEvogp(t)
	mod := t.TempDir()
	copyModule(t, mod)
	// The outputs must change nothing the go tool reports, so `go vet
	// ./...` is compared with its verdict on the untouched copy.
	vetBefore, errBefore := tryIn(mod, "go", "vet", "./...")
	runIn(t, mod, bin, "learn", "-m", "--config", "smoke", "--quiet", "objective.kind=single", "objective.omega=0,1", "gp.generations=1")
	runIn(t, mod, bin, "learn", "--config", "smoke", "--quiet", "gp.generations=1")
	runIn(t, mod, bin, "data", "gen", "--config", "smoke", "--instances", "2", "--out", "data/test")
	runIn(t, mod, bin, "eval", "--dataset", "data/test", "--out", "out/eval", "--quiet", "--format", "svg", "--schedulers", "tiresias,gp=runs/latest")
	points, _ := filepath.Glob(filepath.Join(mod, "runs", "sweep-*", "points", "*"))
	if len(points) != 2 {
		t.Fatalf("sweep points: %v", points)
	}
	for _, p := range points {
		if strings.ContainsAny(filepath.Base(p), "=, ") {
			t.Errorf("point directory %s has characters tools reject", filepath.Base(p))
		}
	}
	vetAfter, errAfter := tryIn(mod, "go", "vet", "./...")
	if (errBefore == nil) != (errAfter == nil) || !slices.Equal(sortedLines(vetBefore), sortedLines(vetAfter)) {
		t.Errorf("go vet ./... changed after writing outputs into the module:\nbefore (%v):\n%s\nafter (%v):\n%s", errBefore, vetBefore, errAfter, vetAfter)
	}

	runIn(t, mod, "git", "init", "-q")
	status := runIn(t, mod, "git", "status", "--porcelain", "--untracked-files=all")
	for _, line := range strings.Split(status, "\n") {
		if strings.Contains(line, "runs/") || strings.Contains(line, "out/") {
			t.Errorf("git does not ignore %s", line)
		}
	}
}

// Ctrl-C and SIGTERM stop a learning run with its checkpoint written and
// the shell's exit codes 130 and 143.
func TestSignalsExitCodes(t *testing.T) {
	bin := buildEvogp(t)
	for _, c := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		dir := t.TempDir()
		out := filepath.Join(dir, "run")
		cmd := exec.Command(bin, "learn", "--config", "quick", "--quiet", "--out", out, "gp.generations=10000", "gp.population=9", "gp.subset=2") // a small generation 0 (quick seeds 9 members): quick's scope-all one takes minutes on a loaded machine
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the run has written its first checkpoint.
		deadline := time.Now().Add(2 * time.Minute)
		for {
			m, _ := filepath.Glob(filepath.Join(dir, ".run.tmp-*", "checkpoint", "*"))
			m2, _ := filepath.Glob(filepath.Join(out, "checkpoint", "*"))
			if len(m)+len(m2) > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != c.want {
			t.Fatalf("%v: exit %v, want code %d\n%s", c.sig, err, c.want, stderr.String())
		}
		if _, err := os.Stat(filepath.Join(out, "checkpoint")); err != nil {
			t.Errorf("%v: no checkpoint in %s: %v\n%s", c.sig, out, err, stderr.String())
		}
	}
}

// The completion hook of the shell script answers with the commands and,
// after a dash, with the flags.
func TestCompletionWords(t *testing.T) {
	bin := buildEvogp(t)
	dir := t.TempDir()
	words := runIn(t, dir, bin, "--generate-bash-completion")
	for _, w := range []string{"learn", "eval", "pressure", "completion", "man"} {
		if !strings.Contains(words, w+"\n") {
			t.Errorf("completion lacks %s:\n%s", w, words)
		}
	}
	flags := runIn(t, dir, bin, "eval", "--sch", "--generate-bash-completion")
	if !strings.Contains(flags, "--schedulers") {
		t.Errorf("flag completion lacks --schedulers:\n%s", flags)
	}
}

// sortedLines are the lines of s in sorted order (go vet reports packages
// in any order).
func sortedLines(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return lines
}

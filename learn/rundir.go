package learn

// Run-directory housekeeping, apart from the generation loop: checking
// --out before any work, the owner record of a work directory, adopting the
// work directory of a killed run, removing stale ones, and keeping the last
// good checkpoint when a write fails.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/evogp/evogp/internal/atomicio"
)

// ownerFile, in a work directory (.NAME.tmp-*), records the process that
// builds it (workOwner). It is removed once the directory is in place.
const ownerFile = ".evogp-owner.json"

// CheckRunDir says, before any work is done, whether out may receive a new
// run directory: out must not exist, or be an empty directory, and its
// nearest existing ancestor must be a directory.
func CheckRunDir(out string) error {
	if out == "" {
		return errors.New("learn: no run directory given")
	}
	st, err := os.Stat(out)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("learn: run directory %s exists and is not a directory", out)
	case err == nil:
		entries, err := os.ReadDir(out)
		if err != nil {
			return fmt.Errorf("learn: run directory: %w", err)
		}
		if len(entries) > 0 {
			return fmt.Errorf("learn: run directory %s exists and is not empty", out)
		}
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("learn: run directory: %w", err)
	}
	for p := filepath.Dir(out); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("learn: run directory %s: %s is not a directory", out, p)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("learn: run directory: %w", err)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// workOwner identifies a process: host name, boot, process id and the
// process's start time (field 22 of /proc/PID/stat), so that a reused
// process id is not mistaken for the owner.
type workOwner struct {
	Host   string `json:"host"`
	BootID string `json:"boot_id,omitempty"`
	PID    int    `json:"pid"`
	Start  string `json:"start,omitempty"`
}

// currentOwner describes this process.
func currentOwner() workOwner {
	host, _ := os.Hostname()
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	start, _ := processStart(os.Getpid())
	return workOwner{Host: host, BootID: strings.TrimSpace(string(boot)), PID: os.Getpid(), Start: start}
}

// processStart is the start time of process pid in clock ticks since boot
// (Linux); an error if there is no such process or no /proc.
func processStart(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", err
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return "", fmt.Errorf("/proc/%d/stat: no command field", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return "", fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	return f[19], nil // field 22 of the whole line
}

// alive says whether the owner may still be running. Only a process on
// this host can be proved gone: one elsewhere (a shared file system)
// counts as alive.
func (o workOwner) alive() bool {
	cur := currentOwner()
	if o.Host != cur.Host {
		return true
	}
	if o.BootID != "" && cur.BootID != "" && o.BootID != cur.BootID {
		return false // started before a reboot
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		start, err := processStart(o.PID)
		if err != nil {
			return false
		}
		return o.Start == "" || start == o.Start
	}
	p, err := os.FindProcess(o.PID)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

// claimWorkDir records this process as the owner of the work directory.
func claimWorkDir(work string) error {
	b, err := json.Marshal(currentOwner())
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	if err := atomicio.WriteBytes(filepath.Join(work, ownerFile), b); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}

// releaseWorkDir removes the owner record of a directory now in place.
func releaseWorkDir(dir string) {
	os.Remove(filepath.Join(dir, ownerFile))
}

// readOwner reads the owner record of a work directory; ok is false when
// there is none (a directory of an older evogp, or of another command).
func readOwner(dir string) (o workOwner, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil || json.Unmarshal(b, &o) != nil || o.PID <= 0 {
		return workOwner{}, false
	}
	return o, true
}

// hasState says whether a run or work directory holds a checkpoint state.
func hasState(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, CheckpointDir, stateFile))
	return err == nil
}

// removeStaleWorkDirs removes, in parent, the work directories
// (.NAME.tmp-*) of learning runs whose owner is proved gone and that hold
// no checkpoint state — a run killed in its first second: nothing of it
// can be lost. One that holds a state is kept, with a warning saying how
// to resume it. Directories without an owner record (another command's,
// or an older evogp's) and except are never touched.
func removeStaleWorkDirs(parent, except string) {
	matches, _ := filepath.Glob(filepath.Join(parent, ".*.tmp-*"))
	for _, m := range matches {
		if m == except {
			continue
		}
		o, ok := readOwner(m)
		if !ok || o.alive() {
			continue
		}
		if hasState(m) {
			name := strings.TrimPrefix(filepath.Base(m), ".")
			name = name[:strings.LastIndex(name, ".tmp-")]
			slog.Warn("an interrupted run was left in its work directory; resume it with evogp learn --resume "+filepath.Join(parent, name), "dir", m)
			continue
		}
		if err := os.RemoveAll(m); err != nil {
			slog.Warn("cannot remove the work directory of a killed run", "dir", m, "err", err)
			continue
		}
		slog.Info("removed the work directory of a run killed before its first checkpoint", "dir", m, "pid", o.PID)
	}
}

// adoptInterrupted finds the work directory of a run that was killed
// before it could rename its directory into place (Run builds the run in
// a hidden sibling, .<name>.tmp-*, and a SIGKILL leaves it there): when
// dir holds no run and exactly one such sibling holds one (config.yaml,
// with or without a checkpoint), and its owner is not running, the sibling
// becomes dir. Several candidates are an error naming them, and so is a
// candidate whose owner still runs.
func adoptInterrupted(dir string) error {
	if hasState(dir) {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err == nil {
		return nil
	}
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-*"))
	if err != nil {
		return err
	}
	var found, live []string
	for _, m := range matches {
		if _, err := os.Stat(filepath.Join(m, ConfigFile)); err != nil {
			continue // killed before it wrote anything to resume
		}
		if o, ok := readOwner(m); ok && o.alive() {
			live = append(live, fmt.Sprintf("%s (process %d on %s)", m, o.PID, o.Host))
			continue
		}
		found = append(found, m)
	}
	switch len(found) {
	case 0:
		if len(live) > 0 {
			return fmt.Errorf("resume %s: the run is still being built by a running evogp in %s; wait for it, or stop it (Ctrl-C keeps its checkpoint) and resume then", dir, strings.Join(live, ", "))
		}
		return nil
	case 1:
		if err := moveInto(found[0], dir); err != nil {
			return fmt.Errorf("resume %s: the interrupted run in %s could not be moved into place: %w", dir, found[0], err)
		}
		releaseWorkDir(dir)
		slog.Info("resuming a run that was killed before it was moved into place", "from", found[0], "to", dir)
		return nil
	}
	return fmt.Errorf("resume %s: several interrupted runs could be it (%s); rename the one to resume to %s", dir, strings.Join(found, ", "), dir)
}

// openCheckpoint loads the checkpoint of the run directory dir (see
// loadCheckpoint), logging each repair as a warning. A nil checkpoint means
// the run starts again from generation 0.
func openCheckpoint(dir string) (*checkpoint, []cacheEntry, error) {
	ckDir := filepath.Join(dir, CheckpointDir)
	if err := os.MkdirAll(ckDir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("checkpoint: %w", err)
	}
	ck, entries, warnings, err := loadCheckpoint(ckDir)
	for _, w := range warnings {
		slog.Warn(w)
	}
	return ck, entries, err
}

// writeError is a failure to write the run directory (a full disk, a lost
// mount) rather than a failure of the computation.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// keepOnWriteFailure turns a failure to write, once a checkpoint exists,
// into an *InterruptedError: the run directory is kept with its last good
// checkpoint (checkpoints replace state.json atomically and truncate
// unclaimed cache records on resume, so a failed write never damages the
// previous one), and the error says how to resume. Other errors are
// returned as they are.
func (r *runner) keepOnWriteFailure(err error) error {
	var we *writeError
	var intr *InterruptedError
	if r.saved < 0 || !errors.As(err, &we) || errors.As(err, &intr) {
		return err
	}
	return &InterruptedError{Dir: r.dir, Generation: r.saved, Err: we.err}
}

// makeWorkDir creates the work directory of a new run directory out: a
// temporary sibling .NAME.tmp-*, owned by this process (claimWorkDir),
// after removing stale ones beside it. cleanup removes it, and out's parent
// when the run created it and it is empty.
func makeWorkDir(out string) (work string, cleanup func(), err error) {
	parent := filepath.Dir(out)
	_, statErr := os.Stat(parent)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", nil, fmt.Errorf("learn: %w", err)
	}
	if work, err = os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-*"); err != nil {
		return "", nil, fmt.Errorf("learn: %w", err)
	}
	cleanup = func() {
		os.RemoveAll(work)
		if statErr != nil {
			os.Remove(parent) // created for this run; removed only if empty
		}
	}
	if err := os.Chmod(work, 0o755); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("learn: %w", err)
	}
	if err := claimWorkDir(work); err != nil {
		cleanup()
		return "", nil, err
	}
	removeStaleWorkDirs(parent, work)
	return work, cleanup, nil
}

// moveInto renames dir to path, replacing an empty directory at path.
func moveInto(dir, path string) error {
	if entries, err := os.ReadDir(path); err == nil {
		if len(entries) > 0 {
			return fmt.Errorf("learn: %s appeared during the run and is not empty", path)
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("learn: %w", err)
		}
	}
	if err := os.Rename(dir, path); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}

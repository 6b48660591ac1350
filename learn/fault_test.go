package learn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// copyDir copies the regular files of the tree src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sameOutputs fails unless best.json and hall_of_fame.csv of dir equal
// those of ref byte for byte.
func sameOutputs(t *testing.T, ref, dir string) {
	t.Helper()
	for _, f := range []string{BestFile, HallFile} {
		if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f))) {
			t.Errorf("%s of %s differs from the uninterrupted run's", f, dir)
		}
	}
}

// workDir is the one work directory .NAME.tmp-* beside dir.
func workDir(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-*"))
	if len(m) != 1 {
		t.Fatalf("want one work directory for %s, have %v", dir, m)
	}
	return m[0]
}

// Issue 32 item 1, its recipe (with 5 generations instead of 20, which is
// enough for the corruption to change the formula learned without
// checksums — checked by reading the same corrupted records as an
// unchecked version-1 cache): a run killed with SIGKILL after generation 0,
// every cache record's fitness flipped (b[r*size+18] ^= 0x10), then
// resumed. Before checksums the corrupted values were used silently and the
// run learned another formula; now every record fails its CRC, is dropped
// and recomputed, and the result is the uninterrupted run's.
func TestCorruptedCacheIsRecomputed(t *testing.T) {
	cfg := testConfig(t, "gp.generations=5", "gp.population=64", "generator.jobs_per_node=50", "generator.nodes=8,16", "gp.subset=4")
	root := t.TempDir()
	ref := filepath.Join(root, "ref")
	if _, err := Run(context.Background(), settings(t, cfg, ref)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "kc")
	killed := filepath.Join(root, "killed")
	s := settings(t, cfg, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.OnGeneration = func(snap Snapshot) {
		if snap.Row.Generation == 0 { // what SIGKILL after generation 0 leaves
			copyDir(t, workDir(t, dir), killed)
			os.Remove(filepath.Join(killed, ownerFile)) // its owner is gone
			cancel()
		}
	}
	if _, err := Run(ctx, s); err == nil {
		t.Fatal("want an interruption")
	}
	os.RemoveAll(dir)
	if err := os.Rename(killed, filepath.Join(root, ".kc.tmp-1")); err != nil { // mv .kc.tmp-* kc is done by Resume
		t.Fatal(err)
	}
	cache := filepath.Join(root, ".kc.tmp-1", CheckpointDir, cacheFile)
	b := readFile(t, cache)
	if len(b) == 0 {
		t.Fatal("generation 0 left no cache records")
	}
	for r := 0; r*cacheRecord+18 < len(b); r++ {
		b[r*cacheRecord+18] ^= 0x10
	}
	if err := os.WriteFile(cache, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ck, entries, warnings, err := loadCheckpoint(filepath.Join(root, ".kc.tmp-1", CheckpointDir))
	if err != nil || ck == nil || len(entries) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0], "fail their checksum") {
		t.Fatalf("corrupted cache: checkpoint %v, %d entries kept, warnings %q, error %v", ck != nil, len(entries), warnings, err)
	}
	if err := os.WriteFile(cache, b, 0o644); err != nil { // loading rewrote it
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), dir, settings(t, cfg, "")); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, ref, dir)
}

// TestCheckpointFaultInjection is the fault-injection property of issue 32:
// for random kill points (after any generation, before generation 0 was
// saved, or between appending the cache and replacing state.json, with the
// cache cut anywhere) and a random byte of a random checkpoint file XORed
// with a random non-zero value, (1) loading the checkpoint either reports
// the corruption (a warning) or yields exactly what the intact files yield
// — an undetected corruption changes nothing — and (2) the resumed run's
// best.json and hall_of_fame.csv equal the uninterrupted run's.
// EVOGP_FAULT_SEED picks another sequence of trials.
func TestCheckpointFaultInjection(t *testing.T) {
	const gens = 6
	cfg := testConfig(t, "gp.generations="+strconv.Itoa(gens), "gp.population=12")
	root := t.TempDir()
	ref := filepath.Join(root, "ref")
	snaps := filepath.Join(root, "snaps")
	s := settings(t, cfg, ref)
	s.OnGeneration = func(snap Snapshot) { // the run directory as a kill right now leaves it
		copyDir(t, workDir(t, ref), filepath.Join(snaps, strconv.FormatInt(snap.Row.Generation, 10)))
	}
	if _, err := Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	seed := uint64(32)
	if v := os.Getenv("EVOGP_FAULT_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	trials := 24
	if testing.Short() {
		trials = 8
	}
	detected := 0
	for trial := range trials {
		dir := filepath.Join(root, fmt.Sprintf("t%d", trial))
		g := rng.IntN(gens+2) - 1
		if g < 0 { // killed before generation 0 was saved
			os.MkdirAll(filepath.Join(dir, CheckpointDir), 0o755)
			os.WriteFile(filepath.Join(dir, ConfigFile), readFile(t, filepath.Join(ref, ConfigFile)), 0o644)
		} else {
			copyDir(t, filepath.Join(snaps, strconv.Itoa(g)), dir)
			os.Remove(filepath.Join(dir, ownerFile))
		}
		kind := fmt.Sprintf("after generation %d", g)
		if g >= 0 && g < gens && rng.IntN(2) == 0 {
			// Killed while checkpointing generation g+1: its cache records
			// (some of them, cut anywhere) appended, state.json still g's.
			cur := readFile(t, filepath.Join(dir, CheckpointDir, cacheFile))
			next := readFile(t, filepath.Join(snaps, strconv.Itoa(g+1), CheckpointDir, cacheFile))
			cut := len(cur) + rng.IntN(len(next)-len(cur)+1)
			os.WriteFile(filepath.Join(dir, CheckpointDir, cacheFile), next[:cut], 0o644)
			kind = fmt.Sprintf("while checkpointing generation %d (cache cut at %d of %d bytes)", g+1, cut, len(next))
		}
		pristine := dir + ".pristine"
		copyDir(t, dir, pristine)
		var files []string
		for _, f := range []string{stateFile, cacheFile} {
			if fi, err := os.Stat(filepath.Join(dir, CheckpointDir, f)); err == nil && fi.Size() > 0 {
				files = append(files, f)
			}
		}
		if len(files) > 0 {
			f := filepath.Join(dir, CheckpointDir, files[rng.IntN(len(files))])
			b := readFile(t, f)
			pos, x := rng.IntN(len(b)), byte(1+rng.IntN(255))
			b[pos] ^= x
			os.WriteFile(f, b, 0o644)
			kind += fmt.Sprintf(", %s byte %d of %d ^= %#02x", filepath.Base(f), pos, len(b), x)
		}
		probe := dir + ".probe"
		copyDir(t, dir, probe)
		ck0, e0, w0, err0 := loadCheckpoint(filepath.Join(pristine, CheckpointDir))
		ck1, e1, w1, err1 := loadCheckpoint(filepath.Join(probe, CheckpointDir))
		if err0 != nil || err1 != nil {
			t.Fatalf("trial %d (%s): intact: %v; corrupted: %v", trial, kind, err0, err1)
		}
		strip := func(ws []string, d string) string { return strings.ReplaceAll(strings.Join(ws, "\n"), d, "") }
		if strip(w0, pristine) != strip(w1, probe) {
			detected++
		} else if !reflect.DeepEqual(ck0, ck1) || !reflect.DeepEqual(e0, e1) {
			t.Fatalf("trial %d (%s): an undetected corruption changed the checkpoint", trial, kind)
		}
		if rng.IntN(3) == 0 { // a SIGKILL left it in its work directory
			hidden := filepath.Join(root, fmt.Sprintf(".t%d.tmp-%d", trial, rng.IntN(1000)))
			os.Rename(dir, hidden)
			kind += ", in its work directory"
		}
		if _, err := Resume(context.Background(), dir, settings(t, cfg, "")); err != nil {
			t.Fatalf("trial %d (%s): %v", trial, kind, err)
		}
		sameOutputs(t, ref, dir)
		t.Logf("trial %d: %s: detected %v", trial, kind, strip(w0, pristine) != strip(w1, probe))
	}
	if detected == 0 {
		t.Error("no trial corrupted anything that was detected; the trials test nothing")
	}
}

// mountTmpfs mounts a tmpfs of size bytes on a fresh directory and
// unmounts it at the end of the test; it skips the test when it cannot
// (not root, or no mount permission in this container).
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a full disk is simulated with a small tmpfs, which only root can mount")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs, so no full disk can be simulated: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes the file path until the file system is full.
func fillDisk(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// Issue 32 item 5: a full disk (ENOSPC) while checkpointing, or while
// writing the outputs at the end, keeps the run directory with its last
// good checkpoint and says how to resume; once space is freed, Resume ends
// with the uninterrupted run's outputs.
func TestFullDiskKeepsCheckpoint(t *testing.T) {
	mnt := mountTmpfs(t, 4<<20)
	cfg := testConfig(t, "gp.generations=4", "gp.population=12")
	ref := filepath.Join(t.TempDir(), "ref")
	if _, err := Run(context.Background(), settings(t, cfg, ref)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		fullAt   int64 // the disk fills after this generation's checkpoint
		wantKept int
	}{{"checkpoint", 1, 1}, {"outputs", 4, 4}} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(mnt, c.name, "run")
			filler := filepath.Join(mnt, "filler")
			s := settings(t, cfg, dir)
			s.OnGeneration = func(snap Snapshot) {
				if snap.Row.Generation == c.fullAt {
					fillDisk(t, filler)
				}
			}
			_, err := Run(context.Background(), s)
			var intr *InterruptedError
			if !errors.As(err, &intr) || intr.Generation != c.wantKept || !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("want the checkpoint of generation %d kept after ENOSPC, got %v", c.wantKept, err)
			}
			if !strings.Contains(err.Error(), "evogp learn --resume "+dir) || !strings.Contains(err.Error(), "no space left") {
				t.Errorf("the error does not say why and how to resume: %v", err)
			}
			if !hasState(dir) {
				t.Fatalf("the run directory %s lost its checkpoint", dir)
			}
			if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".run.tmp-*")); len(m) > 0 {
				t.Errorf("work directories left: %v", m)
			}
			// Still full: resuming fails the same way and keeps the checkpoint.
			if _, err := Resume(context.Background(), dir, settings(t, cfg, "")); !errors.Is(err, syscall.ENOSPC) || !hasState(dir) {
				t.Fatalf("resume on a full disk: %v (checkpoint kept: %v)", err, hasState(dir))
			}
			os.Remove(filler)
			if _, err := Resume(context.Background(), dir, settings(t, cfg, "")); err != nil {
				t.Fatal(err)
			}
			sameOutputs(t, ref, dir)
		})
	}
}

// Issue 32 item 6: learn refuses an --out that is a file (or under one)
// before any work, not after training to the end.
func TestRunChecksOutFirst(t *testing.T) {
	cfg := testConfig(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{file, filepath.Join(file, "sub")} {
		s := settings(t, cfg, out)
		var sims atomic.Int64
		s.onSimulation = func() { sims.Add(1) }
		_, err := Run(context.Background(), s)
		if err == nil || !strings.Contains(err.Error(), "not a directory") || sims.Load() != 0 {
			t.Errorf("--out %s: %v after %d simulations; want a refusal before any", out, err, sims.Load())
		}
		if m, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*.tmp-*")); len(m) > 0 {
			t.Errorf("--out %s left %v", out, m)
		}
	}
}

// Issue 32 item 7: a run killed in its first second leaves its work
// directory with config.yaml and an empty checkpoint/. --resume NAME finds
// it and runs from generation 0 to the uninterrupted result.
func TestResumeAfterKillInFirstSecond(t *testing.T) {
	cfg := testConfig(t, "gp.generations=3", "gp.population=12")
	root := t.TempDir()
	ref := filepath.Join(root, "ref")
	if _, err := Run(context.Background(), settings(t, cfg, ref)); err != nil {
		t.Fatal(err)
	}
	hidden := filepath.Join(root, ".kc.tmp-4242")
	os.MkdirAll(filepath.Join(hidden, CheckpointDir), 0o755)
	os.WriteFile(filepath.Join(hidden, ConfigFile), readFile(t, filepath.Join(ref, ConfigFile)), 0o644)
	dead := currentOwner()
	dead.Start = "0" // this process id, another start time: a process that is gone
	writeOwner(t, hidden, dead)
	dir := filepath.Join(root, "kc")
	stored, err := RunConfig(dir)
	if err != nil {
		t.Fatalf("RunConfig does not find the run killed in its first second: %v", err)
	}
	if _, err := Resume(context.Background(), dir, settings(t, stored, "")); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, ref, dir)
	if _, err := os.Stat(filepath.Join(dir, ownerFile)); err == nil {
		t.Error("the adopted run directory keeps the owner record")
	}
}

// A work directory whose owner still runs is neither adopted nor removed.
func TestLiveWorkDirIsLeftAlone(t *testing.T) {
	cfg := testConfig(t)
	root := t.TempDir()
	live := filepath.Join(root, ".kc.tmp-1")
	os.MkdirAll(filepath.Join(live, CheckpointDir), 0o755)
	os.WriteFile(filepath.Join(live, ConfigFile), []byte("name: smoke\n"), 0o644)
	writeOwner(t, live, currentOwner())
	if _, err := Resume(context.Background(), filepath.Join(root, "kc"), settings(t, cfg, "")); err == nil || !strings.Contains(err.Error(), "still being built") || !strings.Contains(err.Error(), live) {
		t.Errorf("resume of a run another process builds: %v", err)
	}
	if _, err := Run(context.Background(), settings(t, cfg, filepath.Join(root, "other"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live run's work directory was removed: %v", err)
	}
}

// A later run removes the stale work directories of runs killed before
// their first checkpoint, and only those: one with a checkpoint (it can be
// resumed), one without an owner record (not provably a dead learn run's)
// and the run's own stay.
func TestStaleWorkDirsRemoved(t *testing.T) {
	cfg := testConfig(t)
	root := t.TempDir()
	dead := currentOwner()
	dead.Start = "0"
	mk := func(name string, owner *workOwner, state bool) string {
		d := filepath.Join(root, name)
		os.MkdirAll(filepath.Join(d, CheckpointDir), 0o755)
		os.WriteFile(filepath.Join(d, ConfigFile), []byte("name: smoke\n"), 0o644)
		if state {
			os.WriteFile(filepath.Join(d, CheckpointDir, stateFile), []byte("{}"), 0o644)
		}
		if owner != nil {
			writeOwner(t, d, *owner)
		}
		return d
	}
	stale := mk(".a.tmp-1", &dead, false)
	resumable := mk(".b.tmp-2", &dead, true)
	foreign := mk(".c.tmp-3", nil, false)
	if _, err := Run(context.Background(), settings(t, cfg, filepath.Join(root, "new"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the stale work directory %s is still there (%v)", stale, err)
	}
	for _, d := range []string{resumable, foreign} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "new", ownerFile)); err == nil {
		t.Error("the finished run directory keeps the owner record")
	}
}

func writeOwner(t *testing.T, dir string, o workOwner) {
	t.Helper()
	b := fmt.Sprintf(`{"host": %q, "boot_id": %q, "pid": %d, "start": %q}`, o.Host, o.BootID, o.PID, o.Start)
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Issue 32 item 2: a population that cannot fit in memory is refused with
// one clear error before anything is allocated (it used to end in "fatal
// error: runtime: out of memory"), and so are instance counts that cannot
// be generated.
func TestHugeSizesRefused(t *testing.T) {
	s := settings(t, testConfig(t), filepath.Join(t.TempDir(), "run"))
	s.Config = testConfig(t, "gp.population=1000000000000")
	_, err := Run(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "gp.population") || !strings.Contains(err.Error(), "of memory, more than the") {
		t.Errorf("population 10^12: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Out), ".*")); len(m) > 0 {
		t.Errorf("left %v", m)
	}
	if _, _, err := LoadData(testConfig(t, "data.train=1000000000000")); err == nil || !strings.Contains(err.Error(), "data.train + data.validation = 1000000000002 alone needs") {
		t.Errorf("10^12 training instances: %v", err)
	}
}

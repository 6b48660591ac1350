package learn

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/runlog"
)

// TestExtendFinishedRun extends a finished 3-generation run to 5
// generations with --resume and compares every output with a single
// 5-generation run. validate_every = 2 makes the short run's last
// generation (3) carry a validation point that the long run does not have.
func TestExtendFinishedRun(t *testing.T) {
	base := []string{"gp.population=12", "gp.validate_every=2", "gp.hall_of_fame=4"}
	cfg5 := testConfig(t, append(base, "gp.generations=5")...)
	cfg3 := testConfig(t, append(base, "gp.generations=3")...)
	ref := filepath.Join(t.TempDir(), "ref")
	want, err := Run(context.Background(), settings(t, cfg5, ref))
	if err != nil {
		t.Fatal(err)
	}
	compare := func(t *testing.T, dir string, got *Result) {
		t.Helper()
		rowsEqual(t, want.Generations, got.Generations)
		for _, f := range []string{ConfigFile, BestFile, HallFile, FormulaGoFile, FormulaTeXFile, PlotName + ".svg"} {
			if a, b := readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f)); !bytes.Equal(a, b) {
				t.Errorf("%s differs after extension:\n%s\n---\n%s", f, a, b)
			}
		}
		disk, err := runlog.Read(filepath.Join(dir, GenerationsFile))
		if err != nil {
			t.Fatal(err)
		}
		rowsEqual(t, want.Generations, disk)
		if got.Evaluations != want.Evaluations || got.CacheHits != want.CacheHits {
			t.Errorf("evaluations %d / hits %d, want %d / %d", got.Evaluations, got.CacheHits, want.Evaluations, want.CacheHits)
		}
	}

	t.Run("finished 3 to 5", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		short, err := Run(context.Background(), settings(t, cfg3, dir))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(short.ValidationCurve); n == 0 || short.ValidationCurve[n-1].Generation != 3 {
			t.Fatalf("the 3-generation run should end with a validation point at 3: %+v", short.ValidationCurve)
		}
		got, err := Resume(context.Background(), dir, settings(t, cfg5, ""))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, dir, got)
		// Extended to 5, it is complete at 5.
		if _, err := Resume(context.Background(), dir, settings(t, cfg5, "")); err == nil || !strings.Contains(err.Error(), "already complete") {
			t.Errorf("resuming the extended run again: %v", err)
		}
	})

	t.Run("interrupted extension, then resumed", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		if _, err := Run(context.Background(), settings(t, cfg3, dir)); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := settings(t, cfg5, "")
		s.OnGeneration = func(snap Snapshot) {
			if snap.Row.Generation == 4 {
				cancel()
			}
		}
		_, err := Resume(ctx, dir, s)
		var intr *InterruptedError
		if !errors.As(err, &intr) || intr.Generation != 4 {
			t.Fatalf("want an interruption after generation 4, got %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, BestFile)); err == nil {
			t.Fatal("an interrupted extension left the short run's best.json (the run would look complete)")
		}
		// config.yaml now says 5, so a plain resume (the run's own
		// config) finishes the extension.
		stored, err := RunConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		if stored.GP.Generations != 5 {
			t.Fatalf("config.yaml has gp.generations = %d after the extension started", stored.GP.Generations)
		}
		got, err := Resume(context.Background(), dir, settings(t, stored, ""))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, dir, got)
	})

	// A run interrupted after generation 3 of 5 and finished with
	// gp.generations = 3 runs no generation, so it writes no checkpoint;
	// the checkpoint it keeps must still belong to its config.yaml, or the
	// run could never be extended to 5 (issue 42's front runs hit this).
	t.Run("interrupted, shortened, then extended", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := settings(t, cfg5, dir)
		s.OnGeneration = func(snap Snapshot) {
			if snap.Row.Generation == 3 {
				cancel()
			}
		}
		_, err := Run(ctx, s)
		var intr *InterruptedError
		if !errors.As(err, &intr) || intr.Generation != 3 {
			t.Fatalf("want an interruption after generation 3, got %v", err)
		}
		if _, err := Resume(context.Background(), dir, settings(t, cfg3, "")); err != nil {
			t.Fatalf("finishing the interrupted run at 3 generations: %v", err)
		}
		got, err := Resume(context.Background(), dir, settings(t, cfg5, ""))
		if err != nil {
			t.Fatalf("extending the shortened run to 5: %v", err)
		}
		compare(t, dir, got)
	})

	t.Run("refusals", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		if _, err := Run(context.Background(), settings(t, cfg3, dir)); err != nil {
			t.Fatal(err)
		}
		before := readFile(t, filepath.Join(dir, BestFile))
		for _, c := range []struct {
			overrides []string
			want      string
		}{
			{[]string{"gp.generations=5", "gp.mutation=0.5"}, "gp.mutation"},
			{[]string{"gp.generations=5", "seed=9"}, "seed"},
			{[]string{"gp.generations=5", "objective.weights=1,0,0"}, "objective.weights"},
			{[]string{"gp.generations=2"}, "less than the 3 generations"},
			{[]string{"gp.generations=3"}, "already complete"},
		} {
			cfg := testConfig(t, append(append([]string(nil), base...), c.overrides...)...)
			_, err := Resume(context.Background(), dir, settings(t, cfg, ""))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: got %v, want an error containing %q", c.overrides, err, c.want)
			}
		}
		if !bytes.Equal(before, readFile(t, filepath.Join(dir, BestFile))) {
			t.Error("a refused extension touched best.json")
		}
		if st, err := RunConfig(dir); err != nil || st.GP.Generations != 3 {
			t.Errorf("a refused extension touched config.yaml: %v %v", st.GP.Generations, err)
		}
	})
}

// TestConfigHashIgnoresEarlyStop: gp.early_stop and gp.workers do not
// enter the hash, and a config without the key hashes as before it existed
// (the marshalled YAML minus its line).
func TestConfigHashIgnoresEarlyStop(t *testing.T) {
	on := testConfig(t, "gp.early_stop=true")
	off := testConfig(t, "gp.early_stop=false", "gp.workers=3")
	h1, err := ConfigHash(on)
	if err != nil {
		t.Fatal(err)
	}
	h2, err := ConfigHash(off)
	if err != nil {
		t.Fatal(err)
	}
	if h1 != h2 {
		t.Error("gp.early_stop or gp.workers changes the config hash")
	}
	other, err := ConfigHash(testConfig(t, "gp.mutation=0.3"))
	if err != nil || other == h1 {
		t.Errorf("gp.mutation does not change the hash: %v", err)
	}
	b, err := on.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(b), "  early_stop: true\n", "", 1)
	if old == string(b) {
		t.Fatal("no early_stop line in the marshalled config")
	}
	sum := sha256.Sum256([]byte(old))
	if hex.EncodeToString(sum[:]) != h1 {
		t.Error("the hash differs from that of the config without the gp.early_stop line")
	}
}

package simcore

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite simcore/testdata/golden_jobs.csv.gz from the current engine")

// goldenModes are every trigger × backfill combination.
func goldenModes() []Options {
	var out []Options
	for _, b := range []Backfill{BackfillNone, BackfillConservative, BackfillGreedy} {
		for _, tr := range []Trigger{TriggerArrival, TriggerArrivalCompletion} {
			out = append(out, Options{Trigger: tr, Backfill: b})
		}
	}
	return out
}

// goldenInstances are 100 small contended instances and 10 larger ones
// (long queues, so plan reuse and extension are exercised).
func goldenInstances() []*Instance {
	rng := rand.New(rand.NewPCG(2026, 11))
	var out []*Instance
	for i := range 100 {
		out = append(out, randomInstance(rng, fmt.Sprintf("small-%d", i)))
	}
	for i := range 10 {
		inst := randomInstance(rng, fmt.Sprintf("large-%d", i))
		for len(inst.Jobs) < 200 {
			more := randomInstance(rng, "")
			for _, j := range more.Jobs {
				if j.Cluster < len(inst.Clusters) && j.FitsOn(inst.Clusters[j.Cluster]) {
					j.ID = int64(1000 + len(inst.Jobs))
					j.Arrival += int64(len(inst.Jobs)) * 7
					inst.Jobs = append(inst.Jobs, j)
				}
			}
		}
		out = append(out, inst)
	}
	return out
}

// goldenRows simulates every golden instance under every scheduler and mode
// and prints one row per job: first start, finish, cluster, preemptions and
// migrations.
func goldenRows(t *testing.T) []byte {
	var buf bytes.Buffer
	buf.WriteString("instance,scheduler,mode,job,cluster,start,finish,preemptions,migrations\n")
	for _, inst := range goldenInstances() {
		for _, spec := range allSchedulerSpecs() {
			for m, opts := range goldenModes() {
				res, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
				if err != nil {
					t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, err)
				}
				for _, j := range res.Jobs {
					fmt.Fprintf(&buf, "%s,%s,%d,%d,%d,%d,%d,%d,%d\n", inst.Name, spec, m, j.ID, j.Cluster, j.Start, j.Finish, j.Preemptions, j.Migrations)
				}
			}
		}
	}
	return buf.Bytes()
}

// TestGoldenJobResults replays job-level results stored before the
// scheduler seam was introduced: every scheduler, every mode, every job
// must start, finish and land exactly as it did.
func TestGoldenJobResults(t *testing.T) {
	const path = "testdata/golden_jobs.csv.gz"
	got := goldenRows(t)
	if *updateGolden {
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(got)
		w.Close()
		if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	bad := 0
	for i := 0; i < min(len(gl), len(wl)); i++ {
		if gl[i] != wl[i] {
			t.Errorf("row %d:\n got %s\nwant %s", i, gl[i], wl[i])
			if bad++; bad == 10 {
				break
			}
		}
	}
	if len(gl) != len(wl) {
		t.Errorf("%d rows, want %d", len(gl), len(wl))
	}
}

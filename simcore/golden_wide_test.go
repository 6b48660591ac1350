package simcore_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

var updateWideGolden = flag.Bool("update-golden-wide", false, "rewrite simcore/testdata/golden_wide.csv.gz from the current engine")

// wideEVOParams are small EVO parameters, so that the widened golden test
// runs EVO at hundreds of operations in seconds.
func wideEVOParams() evo.Params {
	p := evo.DefaultParams()
	p.Population, p.Generations, p.Seed = 6, 4, 3
	return p
}

// wideScheduler resolves a spec of the widened golden test, with EVO's
// parameters set to wideEVOParams.
func wideScheduler(t *testing.T, spec string) simcore.Scheduler {
	t.Helper()
	r := simcore.NewRegistry()
	evo.Register(r)
	s, err := r.Parse(spec, simcore.Params{Sections: map[string]any{"evo": wideEVOParams()}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// wideCase is one scheduler under one set of modes.
type wideCase struct {
	specs []string
	modes []simcore.Options
}

// wideCases widen TestGoldenJobResults: the allocators that re-decide Js
// (EVO and mct-all) in every mode they support, and the strict and
// preemptive modes for every scheduler that supports them.
func wideCases() []wideCase {
	var reDecide []simcore.Options
	for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
		for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
			reDecide = append(reDecide, simcore.Options{Trigger: tr, Backfill: b, RecordOps: true})
		}
	}
	return []wideCase{
		{[]string{"evo-srsf", "evo+fifo+roundrobin", "mct-all+srsf+bestfit"}, reDecide},
		{[]string{"spark", "liquid", "tiresias", "lyra", "user+fifo+bestfit", "user+srsf+roundrobin", "mct+sjf+bestfit", "mct+srtf+roundrobin"}, []simcore.Options{
			{Backfill: simcore.BackfillStrict},
			{Backfill: simcore.BackfillPreemptive},
			{Backfill: simcore.BackfillPreemptive, PreemptOverhead: 30},
		}},
	}
}

// wideRows prints one row per job (first start, finish, cluster,
// preemptions, migrations) and one row per EVO operation (the bits of
// both fitness values).
func wideRows(t *testing.T) []byte {
	var buf bytes.Buffer
	buf.WriteString("instance,scheduler,mode,job,cluster,start,finish,preemptions,migrations\n")
	buf.WriteString("# op rows: instance,scheduler,mode,op,time,js,generations,evaluations,mct_fitness_bits,evo_fitness_bits\n")
	for _, inst := range simcore.GoldenInstances() {
		for _, c := range wideCases() {
			for _, spec := range c.specs {
				for m, opts := range c.modes {
					res, err := simcore.Simulate(context.Background(), inst, wideScheduler(t, spec), opts)
					if err != nil {
						t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, err)
					}
					for _, j := range res.Jobs {
						fmt.Fprintf(&buf, "%s,%s,%d,%d,%d,%d,%d,%d,%d\n", inst.Name, spec, m, j.ID, j.Cluster, j.Start, j.Finish, j.Preemptions, j.Migrations)
					}
					for k, o := range res.Ops {
						fmt.Fprintf(&buf, "op,%s,%s,%d,%d,%d,%d,%d,%d,%x,%x\n", inst.Name, spec, m, k, o.Time, o.Js, o.Generations, o.Evaluations,
							math.Float64bits(o.MCTFitness), math.Float64bits(o.EVOFitness))
					}
				}
			}
		}
	}
	return buf.Bytes()
}

// TestGoldenWide replays the widened job-level results and EVO operation
// logs, stored before EVO and mct-all moved out of the engine: every job
// must start, finish and land exactly as it did, and every EVO operation
// must find the same fitness values to the bit.
func TestGoldenWide(t *testing.T) {
	if testing.Short() {
		t.Skip("widened golden results: skipped in -short")
	}
	const path = "testdata/golden_wide.csv.gz"
	got := wideRows(t)
	if *updateWideGolden {
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

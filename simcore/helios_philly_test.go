package simcore_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/evogp/evogp/datasets/philly"
	"github.com/evogp/evogp/internal/tracefiles"
	"github.com/evogp/evogp/simcore"
)

// TestHeliosStrictFIFOPhillyWindow runs issue 29's external check: the
// Philly window 2017-10-01..12-01 (68,503 jobs, one instance) at a
// quarter of Helios's VC capacities, jobs on their own VC, best fit,
// strict backfill, operations at arrivals and completions. With
// same-second jobs in numpy's quicksort order (what Helios's pandas
// sort_values gives) the average JCT of FIFO is within 0.01 % of the
// Helios simulator's, overall and on every VC the issue quotes (e13805
// keeps a 0.0066 % difference: Helios places its 12-GPU jobs 8 + 4, the
// import splits them 6 + 6); SJF is unchanged by the tie order and
// within 0.01 s of Helios. Figures: issue 29, from HeliosArtifact.
func TestHeliosStrictFIFOPhillyWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("whole Philly window")
	}
	trace := tracefiles.Philly(t, "philly.csv")
	quarter := map[string]int{"6214e9": 16, "7f04ca": 8, "11cb48": 4, "b436b2": 16, "ee9e8c": 16, "e13805": 4,
		"6c71a0": 8, "2869ce": 4, "ed69ec": 2, "103959": 2, "0e4a51": 8}
	opts := philly.Options{Span: 1464 * time.Hour, GPUsPerNode: 8, Priority: 1, Nodes: quarter,
		VCs: []string{"6214e9", "7f04ca", "11cb48", "b436b2", "ee9e8c", "e13805", "6c71a0", "2869ce", "ed69ec", "103959", "0e4a51"}}
	var err error
	if opts.Window, err = philly.ParseWindow("2017-10-01..2017-12-01"); err != nil {
		t.Fatal(err)
	}
	res, err := philly.ImportFile(trace, opts)
	if err != nil {
		t.Fatal(err)
	}
	inst := &res.Splits[0].Dataset.Instances[0]
	if len(inst.Jobs) != 68503 {
		t.Fatalf("%d jobs in the window, want 68,503", len(inst.Jobs))
	}
	run := func(spec string, ties simcore.ArrivalTies) (all float64, perVC map[string]float64) {
		t.Helper()
		sched, err := simcore.ParseScheduler(spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := simcore.Simulate(context.Background(), inst, sched,
			simcore.Options{Trigger: simcore.TriggerArrivalCompletion, Backfill: simcore.BackfillStrict, ArrivalTies: ties})
		if err != nil {
			t.Fatal(err)
		}
		sum, n := map[string]float64{}, map[string]int{}
		var tot float64
		for _, j := range r.Jobs {
			vc := opts.VCs[j.User]
			sum[vc] += float64(j.Finish - j.Arrival)
			n[vc]++
			tot += float64(j.Finish - j.Arrival)
		}
		perVC = map[string]float64{}
		for vc := range sum {
			perVC[vc] = sum[vc] / float64(n[vc])
		}
		return tot / float64(len(r.Jobs)), perVC
	}
	within := func(what string, got, want, rel float64) {
		t.Helper()
		if math.Abs(got-want) > rel*want {
			t.Errorf("%s: avg JCT %.2f s, Helios %.1f s (%+.4f %%, allowed ±%.4f %%)", what, got, want, 100*(got-want)/want, 100*rel)
		}
	}
	all, perVC := run("user+fifo+bestfit", simcore.TiesNumpyQuicksort)
	within("FIFO strict, all VCs", all, 190286.9, 1e-4)
	for vc, helios := range map[string]float64{"6214e9": 11551.6, "11cb48": 245551.9, "6c71a0": 446087.3, "103959": 1379778.6, "e13805": 47295.9} {
		within("FIFO strict, VC "+vc, perVC[vc], helios, 1e-4)
	}
	for _, ties := range []simcore.ArrivalTies{simcore.TiesByID, simcore.TiesNumpyQuicksort} {
		sjf, _ := run("user+sjf+bestfit", ties)
		if math.Abs(sjf-28781.15) > 0.01 {
			t.Errorf("SJF strict (ties %s): avg JCT %.3f s, Helios 28,781.15 s", ties, sjf)
		}
	}
}

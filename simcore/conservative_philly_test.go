package simcore_test

import (
	"context"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/evogp/evogp/datasets/philly"
	"github.com/evogp/evogp/simcore"
)

// phillyDays imports the first three days of the window used by the Philly
// benchmarks (2017-10-01..04, 1,963 jobs) from the real trace, the 11 Helios VCs with
// their node counts multiplied by scale (1: the Helios capacities, lightly
// loaded; smaller: loaded). It skips the test when the trace is absent.
func phillyDays(t *testing.T, scale float64) *simcore.Instance {
	t.Helper()
	const trace = "../../shared/traces/philly/philly.csv"
	const vcFile = "../../shared/traces/philly/helios_philly_vc.csv"
	if _, err := os.Stat(trace); err != nil {
		t.Skipf("Philly trace not available: %v", err)
	}
	vcs, err := philly.ReadVCFile(vcFile)
	if err != nil {
		t.Fatal(err)
	}
	opts := philly.Options{Span: 72 * time.Hour, GPUsPerNode: 8, Priority: 1, Nodes: map[string]int{}, Scale: scale}
	for _, vc := range vcs {
		opts.VCs = append(opts.VCs, vc.ID)
		opts.Nodes[vc.ID] = vc.Nodes
	}
	if opts.Window, err = philly.ParseWindow("2017-10-01..2017-10-04"); err != nil {
		t.Fatal(err)
	}
	res, err := philly.ImportFile(trace, opts)
	if err != nil {
		t.Fatal(err)
	}
	return &res.Splits[0].Dataset.Instances[0]
}

// TestConservativeMatchesRescanPhilly: conservative backfilling on the
// per-node timelines (arena, fixed state reused across operations, O(1)
// peaks on nodes holding fixed jobs only, skipped copies) gives exactly
// the result of the reference planner (replan at every operation,
// reservations rescanned) on three real Philly days, at the Helios capacities
// (where the fixed state is reused most) and at a quarter of them (long
// queues, reservations on most nodes), under both triggers.
func TestConservativeMatchesRescanPhilly(t *testing.T) {
	if testing.Short() {
		t.Skip("real-trace differential test")
	}
	tiresias, err := simcore.ParseScheduler("tiresias", nil)
	if err != nil {
		t.Fatal(err)
	}
	liquid, err := simcore.ParseScheduler("liquid", nil)
	if err != nil {
		t.Fatal(err)
	}
	formula := simcore.NewListScheduler("d-q*q", simcore.MCT{}, dMinusQQ(), simcore.BestFit{})
	for _, scale := range []float64{1, 0.25} {
		inst := phillyDays(t, scale)
		t.Logf("scale %v: %d jobs on %d clusters", scale, len(inst.Jobs), len(inst.Clusters))
		for _, sched := range []simcore.Scheduler{tiresias, liquid, formula} {
			for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
				opts := simcore.Options{Backfill: simcore.BackfillConservative, Trigger: tr}
				a, err := simcore.Simulate(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatal(err)
				}
				b, err := simcore.SimulateReplanning(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(a, b) {
					for i := range a.Jobs {
						if a.Jobs[i] != b.Jobs[i] {
							t.Fatalf("scale %v %s trigger %v: job %d: timelines %+v, rescan %+v", scale, sched.Name(), tr, a.Jobs[i].ID, a.Jobs[i], b.Jobs[i])
						}
					}
					t.Fatalf("scale %v %s trigger %v: results differ", scale, sched.Name(), tr)
				}
			}
		}
	}
}

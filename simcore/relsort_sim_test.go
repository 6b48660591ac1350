package simcore_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// TestReleaseSortIsExact: sorting the splice's kept releases and the MCT
// prefix's releases by radix (relsort.go) gives exactly the results of the
// comparison sort (TestHooks.RefReleaseSort), job by job and segment by
// segment, on the instance families of TestSpliceMatchesRebuild and on the
// 5,000-job overloaded benchmark instance under tiresias, liquid and
// d − q·q. It requires the radix sort to have run, so it cannot pass by
// never taking it.
func TestReleaseSortIsExact(t *testing.T) {
	type run struct {
		inst  *simcore.Instance
		sched simcore.Scheduler
	}
	var runs []run
	for _, inst := range planInstances(t, rand.New(rand.NewPCG(2026, 29)), 40, 60) {
		for _, sched := range diffSchedulers(t) {
			runs = append(runs, run{inst, sched})
		}
	}
	if !testing.Short() {
		inst := overloadInstance(t, 10)
		for _, sched := range overloadSchedulers(t) {
			runs = append(runs, run{inst, sched})
		}
	}
	var st simcore.PlanStats
	for _, r := range runs {
		for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
			if tr == simcore.TriggerArrivalCompletion && len(r.inst.Jobs) > 1000 {
				continue
			}
			opts := simcore.Options{Trigger: tr, RecordSegments: true}
			want, err := simcore.SimulateHooked(context.Background(), r.inst, r.sched, opts, simcore.TestHooks{RefReleaseSort: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := simcore.SimulateHooked(context.Background(), r.inst, r.sched, opts, simcore.TestHooks{Stats: &st})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				for i := range got.Jobs {
					if !reflect.DeepEqual(got.Jobs[i], want.Jobs[i]) {
						t.Fatalf("%s %s %v: job %d: radix %+v, comparison sort %+v", r.inst.Name, r.sched.Name(), tr, got.Jobs[i].ID, got.Jobs[i], want.Jobs[i])
					}
				}
				t.Fatalf("%s %s %v: results differ", r.inst.Name, r.sched.Name(), tr)
			}
		}
	}
	if st.RadixSorts == 0 {
		t.Fatal("no release batch was sorted by radix")
	}
	t.Logf("%d release batches sorted by radix", st.RadixSorts)
}

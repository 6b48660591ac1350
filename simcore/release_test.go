package simcore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// TestReleaseJoinsLater: a job with Release > Arrival joins the
// simulation at Release (its first operation) and its queuing time counts
// from Arrival; Release 0 changes nothing.
func TestReleaseJoinsLater(t *testing.T) {
	inst := simcore.Instance{Name: "release", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1}},
		Jobs: []simcore.Job{
			{ID: 1, Arrival: 0, Release: 100, Duration: 10, Workers: 1, GPUs: 1, Priority: 1},
			{ID: 2, Arrival: 50, Duration: 10, Workers: 1, GPUs: 1, Priority: 1},
		}}
	sched := simcore.NewListScheduler("fifo", simcore.UserAllocator{}, simcore.FIFO{}, simcore.BestFit{})
	res, err := simcore.Simulate(context.Background(), &inst, sched, simcore.Options{RecordSegments: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := simcore.CheckInvariants(&inst, res); err != nil {
		t.Fatal(err)
	}
	// Job 2 runs 50–60 alone; job 1 joins at 100 and runs 100–110,
	// having queued since 0.
	if res.Operations != 2 || res.Jobs[0].Start != 100 || res.Jobs[0].Queue != 100 || res.Jobs[1].Start != 50 {
		t.Fatalf("operations %d, jobs %+v", res.Operations, res.Jobs)
	}
	// Without Release job 1 starts at 0.
	inst.Jobs[0].Release = 0
	res, err = simcore.Simulate(context.Background(), &inst, sched, simcore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].Start != 0 || res.Jobs[0].Queue != 0 {
		t.Fatalf("without release: %+v", res.Jobs[0])
	}
	inst.Jobs[0].Release = -1
	if err := inst.Validate(); err == nil || !strings.Contains(err.Error(), "release = -1") {
		t.Fatalf("negative release: %v", err)
	}
}

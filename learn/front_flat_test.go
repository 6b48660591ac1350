package learn

import (
	"context"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// FlatBaselines warns when no job ever waits (every scheduler gives the
// same schedule) and is silent when the order of a queue matters.
func TestFlatBaselines(t *testing.T) {
	cluster := []simcore.Cluster{{Nodes: 1, GPUsPerNode: 8}}
	job := func(id, arrival, duration int64) simcore.Job {
		return simcore.Job{ID: id, Arrival: arrival, Duration: duration, Workers: 1, GPUs: 1, Priority: 1}
	}
	idle := simcore.Instance{Name: "idle", Clusters: cluster, Jobs: []simcore.Job{job(1, 0, 100), job(2, 50, 30), job(3, 400, 10)}}
	// One GPU: a long job first, then two short ones queue behind it.
	busy := simcore.Instance{Name: "busy", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1}},
		Jobs: []simcore.Job{job(1, 0, 1000), job(2, 1, 10), job(3, 2, 10), job(4, 3, 500), job(5, 4, 5)}}
	opts, err := SimOptions(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	w, err := FlatBaselines(ctx, "idle", []simcore.Instance{idle}, opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w, "less than 1 %") || !strings.Contains(w, "idle set") || !strings.Contains(w, "avg_jct 1–1") {
		t.Errorf("no job waits, yet the warning is %q", w)
	}
	w, err = FlatBaselines(ctx, "busy", []simcore.Instance{busy}, opts, 2)
	if err != nil {
		t.Fatal(err)
	}
	if w != "" {
		t.Errorf("the order of the queue matters, yet: %q", w)
	}
}

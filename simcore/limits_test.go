package simcore

import (
	"context"
	"strings"
	"testing"
)

// issue 32 item 3: a cluster of 2^31−1 nodes of 2^31−1 GPUs once passed
// validation and then made newPlanner allocate 17 GB. Validate now refuses
// any cluster above the documented limits, naming the cluster and the
// field, and Simulate returns that error before allocating anything.
func TestClusterSizeLimits(t *testing.T) {
	jobs := []Job{job(1, 0, 0, 10, 1, 1)}
	for _, c := range []struct {
		cluster Cluster
		field   string
	}{
		{Cluster{Nodes: 2147483647, GPUsPerNode: 2147483647}, "nodes = 2147483647"},
		{Cluster{Nodes: MaxNodes + 1, GPUsPerNode: 1}, "nodes ="},
		{Cluster{Nodes: 1, GPUsPerNode: MaxGPUsPerNode + 1}, "gpus_per_node ="},
		{Cluster{Nodes: MaxNodes, GPUsPerNode: MaxClusterGPUs/MaxNodes + 1}, "nodes × gpus_per_node"},
	} {
		inst := &Instance{Name: "huge", Clusters: []Cluster{{Nodes: 1, GPUsPerNode: 1}, c.cluster}, Jobs: jobs}
		err := inst.Validate()
		if err == nil || !strings.Contains(err.Error(), "cluster 1") || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: Validate gave %v, want an error naming cluster 1 and %q", c.cluster, err, c.field)
		}
		sched, err := ParseScheduler("spark", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Simulate(context.Background(), inst, sched, Options{}); err == nil {
			t.Errorf("%+v: Simulate accepted it", c.cluster)
		}
	}
	// The limits themselves are allowed.
	for _, c := range []Cluster{{Nodes: MaxNodes, GPUsPerNode: MaxClusterGPUs / MaxNodes}, {Nodes: MaxClusterGPUs / MaxGPUsPerNode, GPUsPerNode: MaxGPUsPerNode}} {
		inst := &Instance{Name: "max", Clusters: []Cluster{c}, Jobs: jobs}
		if err := inst.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	if err := CheckClusterSize(MaxNodes, 1); err != nil {
		t.Error(err)
	}
	if err := CheckClusterSize(MaxNodes+1, 1); err == nil {
		t.Error("CheckClusterSize accepted MaxNodes+1")
	}
}

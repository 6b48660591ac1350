package slurm

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// order lists the planned job ids of a partition in rank order.
func order(ds []Decision, partition string) []int64 {
	var out []int64
	for _, d := range ds {
		if d.Partition == partition {
			out = append(out, d.Job.ID)
		}
	}
	return out
}

// handQueue: one partition of 2 nodes × 4 GPUs; a running job holds one
// node for 30 more minutes; four pending jobs.
func handQueue() Snapshot {
	jobs := []fakeJob{
		{id: 100, partition: "gpu", state: "RUNNING", submitAgo: 40 * time.Minute, startAgo: 30 * time.Minute, limit: "1:00:00", nodes: 1, cpus: 8, perNode: "gres/gpu:4", priority: 10},
		{id: 1, partition: "gpu", state: "PENDING", submitAgo: 60 * time.Minute, limit: "2:00:00", nodes: 1, cpus: 4, perNode: "gres/gpu:2", priority: 9},
		{id: 2, partition: "gpu", state: "PENDING", submitAgo: 10 * time.Minute, limit: "30:00", nodes: 1, cpus: 4, perNode: "gres/gpu:4", priority: 8, qos: "high"},
		{id: 3, partition: "gpu", state: "PENDING", submitAgo: 120 * time.Minute, limit: "4:00:00", nodes: 1, cpus: 4, perJob: "gres/gpu:1", priority: 7},
		{id: 4, partition: "gpu", state: "PENDING", submitAgo: 5 * time.Minute, limit: "1:00:00", nodes: 2, cpus: 8, perNode: "gres/gpu:4", priority: 6},
	}
	return snapshotOf([]string{"gpu"}, jobs, gpuNodes("gpu", 2, 4))
}

// TestPlanHandRankings checks the order of hand-computed cases: g·d
// (ties by eligible time), the oldest first, and u·q with a QOS mapping.
func TestPlanHandRankings(t *testing.T) {
	for _, c := range []struct {
		formula string
		qos     map[string]int
		want    []int64
	}{
		// g·d in hours: 1: 2·2 = 4, 2: 4·0.5 = 2, 3: 1·4 = 4, 4: 8·1 = 8;
		// 1 and 3 tie, 3 became eligible first.
		{"g * d", nil, []int64{2, 3, 1, 4}},
		// q: 3 waited 120 min, 1 60, 2 10, 4 5.
		{"0 - q", nil, []int64{3, 1, 2, 4}},
		// u·q with high = 10: job 2 scores 100 minutes.
		{"0 - u * q", map[string]int{"high": 10}, []int64{3, 2, 1, 4}},
		// d from the limit: 2 (0.5 h), 1 and 4 (… 4 is 1 h), 1 (2 h), 3 (4 h).
		{"d", nil, []int64{2, 4, 1, 3}},
	} {
		sched, err := oneTree(c.formula)
		if err != nil {
			t.Fatal(err)
		}
		m := DefaultMapping()
		m.QOSPriority = c.qos
		md, ds, err := planOf(handQueue(), m, sched)
		if err != nil {
			t.Fatalf("%s: %v", c.formula, err)
		}
		if len(md.Running) != 1 || len(md.Pending) != 4 {
			t.Fatalf("%s: %d running, %d pending modelled", c.formula, len(md.Running), len(md.Pending))
		}
		if got := order(ds, "gpu"); !slices.Equal(got, c.want) {
			t.Errorf("%s: order %v, want %v", c.formula, got, c.want)
		}
		for k, d := range ds {
			if d.Rank != k+1 || d.Priority != DefaultPriorityBase+int64(len(ds)-1-k) {
				t.Errorf("%s: job %d rank %d priority %d", c.formula, d.Job.ID, d.Rank, d.Priority)
			}
		}
	}
}

// TestPlanHandRouting: partition a is full (its one node of 4 GPUs runs a
// job for 50 more minutes), b is empty. R = W (work ahead per GPU), f =
// g·d. Jobs are decided in f order on their cluster: 1 (2, eligible
// first), 2 (2), 3 (4). W_a = 4·(50/60)/4 = 0.833, W_b = 0: 1 → b and
// W_b = 0.5; 2 → b and W_b = 1; 3 → a (0.833 < 1). So b runs 1 then 2
// and the full partition a gets job 3.
func TestPlanHandRouting(t *testing.T) {
	jobs := []fakeJob{
		{id: 100, partition: "a", state: "RUNNING", submitAgo: 20 * time.Minute, startAgo: 10 * time.Minute, limit: "1:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:4", priority: 5},
		{id: 1, partition: "a", state: "PENDING", submitAgo: 30 * time.Minute, limit: "1:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:2", priority: 4},
		{id: 2, partition: "a", state: "PENDING", submitAgo: 20 * time.Minute, limit: "2:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 3},
		{id: 3, partition: "b", state: "PENDING", submitAgo: 10 * time.Minute, limit: "1:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:4", priority: 2},
	}
	nodes := append(gpuNodes("a", 1, 4), gpuNodes("b", 1, 4)...)
	snap := snapshotOf([]string{"a", "b"}, jobs, nodes)
	for _, scope := range []string{"all", "arrivals"} {
		sched, err := twoTree("W", scope, "g * d")
		if err != nil {
			t.Fatal(err)
		}
		_, ds, err := planOf(snap, DefaultMapping(), sched)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := order(ds, "a"), order(ds, "b"); !slices.Equal(a, []int64{3}) || !slices.Equal(b, []int64{1, 2}) {
			t.Errorf("scope %s: a %v, b %v; want a [3], b [1 2]", scope, a, b)
		}
	}
	// R = h: every job prefers the partition it was not submitted to, and
	// a restore record's partition is the user partition: job 1 (now in
	// a, submitted to b) goes to a, 2 to b, 3 to a.
	sched, err := twoTree("h", "all", "g * d")
	if err != nil {
		t.Fatal(err)
	}
	md, err := Build(snap, DefaultMapping(), map[int64]string{1: "b"})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Plan(t.Context(), md, sched, simcoreOptions(), DefaultPriorityBase)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := order(ds, "a"), order(ds, "b"); !slices.Equal(a, []int64{1, 3}) || !slices.Equal(b, []int64{2}) {
		t.Errorf("R = h: a %v, b %v; want a [1 3] (job 1's user partition is b, so it goes to a), b [2]", a, b)
	}
}

// TestNotesLeaveJobsAlone: held, ineligible, GPU-less, limitless, too big
// and multi-partition jobs are noted and never planned; drained nodes are
// not counted.
func TestNotesLeaveJobsAlone(t *testing.T) {
	jobs := []fakeJob{
		{id: 1, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 9},
		{id: 2, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 0, reason: "JobHeldUser"},
		{id: 3, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 5, reason: "Dependency", ineligble: true},
		{id: 4, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, priority: 5},
		{id: 5, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 5, limit: "UNLIMITED"},
		{id: 6, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 3, cpus: 1, perNode: "gres/gpu:4", priority: 5},
		{id: 7, partition: "gpu,cpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 5},
		{id: 8, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 2, cpus: 1, perJob: "gres/gpu:3", priority: 5},
	}
	nodes := append(gpuNodes("gpu", 2, 4), fakeNode{partition: "gpu", name: "gpu9", cpus: 32, gres: "gpu:4", state: "drained"})
	md, ds, err := planOf(snapshotOf([]string{"gpu"}, jobs, nodes), DefaultMapping(), mustOneTree(t, "g * d"))
	if err != nil {
		t.Fatal(err)
	}
	if got := order(ds, "gpu"); !slices.Equal(got, []int64{1}) {
		t.Errorf("planned %v, want only job 1", got)
	}
	if c := md.Instance.Clusters[0]; c.Nodes != 2 || c.GPUsPerNode != 4 {
		t.Errorf("cluster %+v, want 2 nodes of 4 GPUs (the drained node not counted)", c)
	}
	notes := strings.Join(md.Notes, "\n")
	for _, want := range []string{"job 2 (gpu, pending): held", "job 3 (gpu, pending): not eligible", "job 4 (gpu, pending): requests no GPU",
		"job 5 (gpu, pending): no time limit", "job 6 (gpu, pending): g = 12 on r = 3 fits no managed partition",
		"job 7 (gpu,cpu, pending): lists partitions", "job 8 (gpu, pending): g = 3 is not a multiple of r = 2", "node gpu9 is drained"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// TestDurationFromComment: the comment's estimate (seconds or a Slurm
// time) is d, else the limit.
func TestDurationFromComment(t *testing.T) {
	jobs := []fakeJob{
		{id: 1, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", limit: "10:00:00", comment: "600", priority: 1},
		{id: 2, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", limit: "10:00:00", comment: "0:05:00", priority: 1},
		{id: 3, partition: "gpu", state: "PENDING", submitAgo: time.Hour, nodes: 1, cpus: 1, perNode: "gres/gpu:1", limit: "0:20:00", comment: "not an estimate", priority: 1},
	}
	m := DefaultMapping()
	m.Duration = "comment"
	_, ds, err := planOf(snapshotOf([]string{"gpu"}, jobs, gpuNodes("gpu", 1, 4)), m, mustOneTree(t, "d"))
	if err != nil {
		t.Fatal(err)
	}
	if got := order(ds, "gpu"); !slices.Equal(got, []int64{2, 1, 3}) {
		t.Errorf("order by d from comments %v, want [2 1 3] (300 s, 600 s, the 20 min limit)", got)
	}
	_, ds, err = planOf(snapshotOf([]string{"gpu"}, jobs, gpuNodes("gpu", 1, 4)), DefaultMapping(), mustOneTree(t, "d"))
	if err != nil {
		t.Fatal(err)
	}
	if got := order(ds, "gpu"); !slices.Equal(got, []int64{3, 1, 2}) {
		t.Errorf("order by d from limits %v, want [3 1 2]", got)
	}
}

// TestCPUsStandIn: --gpus-from cpus reads CPUs as GPUs, as on CI's node.
func TestCPUsStandIn(t *testing.T) {
	jobs := []fakeJob{
		{id: 1, partition: "p", state: "RUNNING", submitAgo: time.Minute, startAgo: time.Minute, nodes: 1, cpus: 2},
		{id: 2, partition: "p", state: "PENDING", submitAgo: time.Minute, nodes: 1, cpus: 2, priority: 1},
		{id: 3, partition: "p", state: "PENDING", submitAgo: time.Minute, nodes: 1, cpus: 1, priority: 1},
	}
	m := DefaultMapping()
	m.GPUs = "cpus"
	md, ds, err := planOf(snapshotOf([]string{"p"}, jobs, []fakeNode{{partition: "p", name: "n", cpus: 2}}), m, mustOneTree(t, "g"))
	if err != nil {
		t.Fatal(err)
	}
	if c := md.Instance.Clusters[0]; c.Nodes != 1 || c.GPUsPerNode != 2 || len(md.Running) != 1 {
		t.Fatalf("cluster %+v, %d running", c, len(md.Running))
	}
	if got := order(ds, "p"); !slices.Equal(got, []int64{3, 2}) {
		t.Errorf("order %v, want [3 2]", got)
	}
	// The same node read for GPUs has none: a clear error naming the way out.
	if _, _, err := planOf(snapshotOf([]string{"p"}, jobs, []fakeNode{{partition: "p", name: "n", cpus: 2}}), DefaultMapping(), mustOneTree(t, "g")); err == nil ||
		!strings.Contains(err.Error(), "--gpus-from cpus") {
		t.Errorf("no GPUs: %v", err)
	}
}

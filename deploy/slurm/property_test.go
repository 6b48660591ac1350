package slurm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/evogp/evogp/simcore"
)

// schedulers the property tests draw from: one-tree (mct+formula) and
// two-tree (rule, both scopes) learned schedulers over the terminals
// deploy supplies.
var propertySchedulers = []struct{ routing, scope, ranking string }{
	{"", "", "g * d"},
	{"", "", "0 - u * q"},
	{"", "", "d - q % (g + 1)"},
	{"", "", "a * r - d"},
	{"W", "all", "g * d"},
	{"W - h", "arrivals", "0 - q"},
	{"h * (2 - g)", "all", "g * d - q"},
	{"x + W * o", "all", "d * u - a"},
	{"f % (n + 1)", "arrivals", "r * w - q"},
	{"m", "all", "g * d"},
	{"C - f + d", "all", "e - q"},
}

func propertyScheduler(t *testing.T, k int) (simcore.Scheduler, string) {
	s := propertySchedulers[k]
	var sched simcore.Scheduler
	var err error
	if s.routing == "" {
		sched, err = oneTree(s.ranking)
	} else {
		sched, err = twoTree(s.routing, s.scope, s.ranking)
	}
	if err != nil {
		t.Fatalf("%+v: %v", s, err)
	}
	return sched, fmt.Sprintf("R=%q scope=%s f=%q", s.routing, s.scope, s.ranking)
}

// randomQueue draws partitions and a queue (pending jobs; running ones
// with withRunning) that fits them.
func randomQueue(rng *rand.Rand, withRunning bool) ([]string, []simcore.Cluster, []fakeJob, []fakeNode) {
	np := 1 + rng.IntN(3)
	var parts []string
	var clusters []simcore.Cluster
	var nodes []fakeNode
	for p := range np {
		name := fmt.Sprintf("p%d", p)
		c := simcore.Cluster{Nodes: 1 + rng.IntN(3), GPUsPerNode: []int{1, 2, 4}[rng.IntN(3)]}
		parts, clusters = append(parts, name), append(clusters, c)
		nodes = append(nodes, gpuNodes(name, c.Nodes, c.GPUsPerNode)...)
	}
	var jobs []fakeJob
	id := int64(100)
	add := func(state string) {
		p := rng.IntN(np)
		c := clusters[p]
		w := []int{1, 2, 4}[rng.IntN(3)]
		for w > c.GPUsPerNode {
			w /= 2
		}
		r := 1 + rng.IntN(c.Nodes)
		id += 1 + int64(rng.IntN(3))
		j := fakeJob{id: id, partition: parts[p], state: state, nodes: r, cpus: r, perNode: fmt.Sprintf("gres/gpu:%d", w),
			limit: fmt.Sprintf("%d:%02d:00", rng.IntN(5), 1+rng.IntN(59)), priority: int64(1 + rng.IntN(100)),
			submitAgo: time.Duration(rng.IntN(600)) * time.Minute}
		if rng.IntN(3) == 0 {
			j.qos = "high"
		}
		if state == "RUNNING" {
			j.startAgo = time.Duration(rng.IntN(60)) * time.Minute
		}
		jobs = append(jobs, j)
	}
	for range 1 + rng.IntN(10) {
		add("PENDING")
	}
	if withRunning {
		// Running jobs: at most one per node, so that they fit.
		for p, c := range clusters {
			for range rng.IntN(c.Nodes + 1) {
				id++
				w := c.GPUsPerNode
				jobs = append(jobs, fakeJob{id: id, partition: parts[p], state: "RUNNING", nodes: 1, cpus: 1,
					perNode: fmt.Sprintf("gres/gpu:%d", 1+rng.IntN(w)), limit: "2:00:00", priority: 1,
					submitAgo: 90 * time.Minute, startAgo: time.Duration(rng.IntN(119)) * time.Minute})
			}
		}
	}
	return parts, clusters, jobs, nodes
}

// refStarts plans jobs (in the given order) on a cluster at time t by
// SPEC §4.3 as written: Eq. 13 reservations and best-fit placement.
func refStarts(c simcore.Cluster, jobs []simcore.Job, t int64) []int64 {
	type hold struct {
		node, gpus int
		end        int64
	}
	var held []hold
	sigma := func(tau int64) []int {
		s := make([]int, c.Nodes)
		for n := range s {
			s[n] = c.GPUsPerNode
		}
		for _, h := range held {
			if h.end > tau {
				s[h.node] -= h.gpus
			}
		}
		return s
	}
	var starts []int64
	for _, j := range jobs {
		w := j.GPUs / j.Workers
		cands := []int64{t}
		for _, h := range held {
			cands = append(cands, h.end)
		}
		slices.Sort(cands)
		var at int64 = -1
		var s []int
		for _, tau := range cands {
			s = sigma(tau)
			fit := 0
			for _, v := range s {
				fit += max(0, v) / w
			}
			if fit >= j.Workers {
				at = tau
				break
			}
		}
		for range j.Workers {
			best := -1
			for n, v := range s {
				if v >= w && (best < 0 || v < s[best]) {
					best = n
				}
			}
			s[best] -= w
			held = append(held, hold{best, w, at + j.Duration})
		}
		starts = append(starts, at)
	}
	return starts
}

// TestPropertyDeployIsSimulatesFirstOperation: on random queues of
// pending jobs, deploy's decisions (from squeue/sinfo text, through
// Build and Plan) are simulate's first operation on the equivalent
// instance, built here directly from the drawn jobs: every job's cluster
// is the one simcore.Simulate gives it, and planning each cluster in
// deploy's order by SPEC §4.3 as written gives every job the start
// simcore.Simulate gives it.
func TestPropertyDeployIsSimulatesFirstOperation(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2026))
	iterations := 300
	if testing.Short() {
		iterations = 60
	}
	mapping := DefaultMapping()
	mapping.QOSPriority = map[string]int{"high": 3}
	for it := range iterations {
		parts, clusters, jobs, nodes := randomQueue(rng, false)
		k := rng.IntN(len(propertySchedulers))
		sched, label := propertyScheduler(t, k)
		_, ds, err := planOf(snapshotOf(parts, jobs, nodes), mapping, sched)
		if err != nil {
			t.Fatalf("iteration %d (%s): %v", it, label, err)
		}
		// The equivalent instance: the jobs arrive at their submit times and
		// all join the first operation, at now.
		var maxAgo int64
		for _, j := range jobs {
			maxAgo = max(maxAgo, int64(j.submitAgo/time.Second))
		}
		inst := simcore.Instance{Name: "equivalent", Clusters: clusters}
		for _, j := range jobs {
			p := slices.Index(parts, j.partition)
			var w int
			fmt.Sscanf(j.perNode, "gres/gpu:%d", &w)
			lim, _ := ParseLimit(j.limit)
			u := 1
			if j.qos == "high" {
				u = 3
			}
			inst.Jobs = append(inst.Jobs, simcore.Job{ID: j.id, Arrival: maxAgo - int64(j.submitAgo/time.Second), Release: maxAgo,
				Cluster: p, Duration: int64(lim / time.Second), Workers: j.nodes, GPUs: w * j.nodes, Priority: u})
		}
		res, err := simcore.Simulate(context.Background(), &inst, sched, simcore.Options{})
		if err != nil {
			t.Fatalf("iteration %d (%s): simulate: %v", it, label, err)
		}
		if res.Operations != 1 {
			t.Fatalf("iteration %d: %d operations, want 1", it, res.Operations)
		}
		byID := map[int64]simcore.JobResult{}
		for _, r := range res.Jobs {
			byID[r.ID] = r
		}
		if len(ds) != len(jobs) {
			t.Fatalf("iteration %d (%s): %d decisions for %d jobs", it, label, len(ds), len(jobs))
		}
		for p, name := range parts {
			var ordered []simcore.Job
			for _, d := range ds {
				if d.Partition != name {
					continue
				}
				if byID[d.Job.ID].Cluster != p {
					t.Fatalf("iteration %d (%s): job %d: deploy %s, simulate cluster %d", it, label, d.Job.ID, name, byID[d.Job.ID].Cluster)
				}
				for _, j := range inst.Jobs {
					if j.ID == d.Job.ID {
						ordered = append(ordered, j)
					}
				}
			}
			starts := refStarts(clusters[p], ordered, maxAgo)
			for i, j := range ordered {
				if got := byID[j.ID].Start; got != starts[i] {
					t.Fatalf("iteration %d (%s): partition %s in deploy's order %v: job %d starts at %d by SPEC §4.3, at %d in simulate",
						it, label, name, ids(ordered), j.ID, starts[i], got)
				}
			}
		}
	}
}

func ids(jobs []simcore.Job) []int64 {
	out := make([]int64, len(jobs))
	for i, j := range jobs {
		out[i] = j.ID
	}
	return out
}

// TestPropertyDecisionsWellFormed: with running jobs too, every managed
// pending job gets one decision, ranks are 1..n per partition with
// priorities falling by one, running jobs are never decided, and the
// decisions do not depend on the order of squeue's lines or on the clock
// (all times shifted by a day).
func TestPropertyDecisionsWellFormed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 41))
	for it := range 150 {
		parts, _, jobs, nodes := randomQueue(rng, true)
		sched, label := propertyScheduler(t, rng.IntN(len(propertySchedulers)))
		snap := snapshotOf(parts, jobs, nodes)
		md, ds, err := planOf(snap, DefaultMapping(), sched)
		if err != nil {
			t.Fatalf("iteration %d (%s): %v\n%s", it, label, err, snap.Squeue)
		}
		pending := 0
		for _, j := range jobs {
			if j.state == "PENDING" {
				pending++
			}
		}
		if len(ds) != pending || len(md.Pending) != pending {
			t.Fatalf("iteration %d: %d decisions, %d pending", it, len(ds), pending)
		}
		rank := map[string]int{}
		for _, d := range ds {
			if d.Job.State != "PENDING" {
				t.Fatalf("iteration %d: decided %s job %d", it, d.Job.State, d.Job.ID)
			}
			rank[d.Partition]++
			if d.Rank != rank[d.Partition] {
				t.Fatalf("iteration %d: job %d rank %d, want %d", it, d.Job.ID, d.Rank, rank[d.Partition])
			}
		}
		for _, d := range ds {
			if d.Priority != DefaultPriorityBase+int64(rank[d.Partition]-d.Rank) {
				t.Fatalf("iteration %d: job %d priority %d", it, d.Job.ID, d.Priority)
			}
		}
		// Shuffled lines, shifted clock.
		ls := strings.Split(strings.TrimSpace(snap.Squeue), "\n")
		rng.Shuffle(len(ls), func(a, b int) { ls[a], ls[b] = ls[b], ls[a] })
		shifted := snap
		shifted.Squeue = strings.Join(ls, "\n") + "\n"
		shifted.Meta.Now += 86400
		shifted.Meta.UTCOffset = -86400
		_, ds2, err := planOf(shifted, DefaultMapping(), sched)
		if err != nil {
			t.Fatal(err)
		}
		key := func(ds []Decision) []string {
			var out []string
			for _, d := range ds {
				out = append(out, fmt.Sprintf("%d %s %d", d.Job.ID, d.Partition, d.Rank))
			}
			sort.Strings(out)
			return out
		}
		if !slices.Equal(key(ds), key(ds2)) {
			t.Fatalf("iteration %d (%s): decisions depend on line order or clock:\n%v\n%v", it, label, key(ds), key(ds2))
		}
	}
}

package hydra

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

func parse(t testing.TB, spec string, p *Params) simcore.Scheduler {
	t.Helper()
	r := simcore.NewRegistry()
	Register(r)
	params := simcore.Params{}
	if p != nil {
		params.Sections = map[string]any{SectionName: *p}
	}
	s, err := r.Parse(spec, params)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// randomHetero draws a heterogeneous single-GPU instance: 1–3 clusters of
// types A/B/C (1-GPU nodes, or 2-GPU nodes), jobs with per-type
// durations (some types impossible), 40% with deadlines, arrivals in
// bursts (several jobs at one instant).
func randomHetero(r *rand.Rand, name string, homogeneous bool) simcore.Instance {
	types := []string{"A", "B", "C"}
	in := simcore.Instance{Name: name}
	nc := 1 + r.IntN(3)
	for p := range nc {
		in.Clusters = append(in.Clusters, simcore.Cluster{Nodes: 1 + r.IntN(3), GPUsPerNode: 1 + r.IntN(2), GPUType: types[p]})
	}
	n := 1 + r.IntN(14)
	t := int64(0)
	for i := range n {
		if r.IntN(3) == 0 {
			t += r.Int64N(40)
		}
		base := 1 + r.Int64N(60)
		j := simcore.Job{ID: int64(100 - i), Arrival: t, Cluster: r.IntN(nc), Duration: base, Workers: 1, GPUs: 1, Priority: 1}
		if !homogeneous {
			j.TypeDurations = map[string]int64{}
			for p := range nc {
				j.TypeDurations[types[p]] = base * (1 + r.Int64N(3))
			}
			if nc > 1 && r.IntN(4) == 0 {
				j.TypeDurations[types[r.IntN(nc)]] = 0
			}
			j.Duration = base * 3 // the fallback; every type has an entry
		}
		if r.IntN(5) < 2 {
			j.Deadline = t + 1 + r.Int64N(4*base)
		}
		// Keep the user cluster feasible.
		for j.TypeDurations != nil && j.TypeDurations[types[j.Cluster]] == 0 {
			j.Cluster = (j.Cluster + 1) % nc
		}
		in.Jobs = append(in.Jobs, j)
	}
	return in
}

// checkHydraModel checks what Hydra's model adds to
// simcore.CheckInvariants on a recorded run: one job per GPU at a time (no node over capacity), no start before
// arrival, every job finishes, exactly one segment per job (no preemption,
// no migration) whose length is the job's duration on that cluster's type
// (work conserved: done fraction = 1).
func checkHydraModel(in *simcore.Instance, res simcore.Result) error {
	segs := make([][]simcore.Segment, len(in.Jobs))
	type ev struct {
		at    int64
		delta int
	}
	perNode := map[[2]int][]ev{}
	for _, sg := range res.Segments {
		segs[sg.Job] = append(segs[sg.Job], sg)
		for node, k := range sg.Workers {
			if k > 0 {
				key := [2]int{sg.Cluster, node}
				perNode[key] = append(perNode[key], ev{sg.Start, k}, ev{sg.End, -k})
			}
		}
	}
	for key, evs := range perNode {
		slices.SortFunc(evs, func(a, b ev) int {
			if a.at != b.at {
				return int(a.at - b.at)
			}
			return a.delta - b.delta
		})
		used := 0
		for _, e := range evs {
			used += e.delta
			if used > in.Clusters[key[0]].GPUsPerNode {
				return fmt.Errorf("cluster %d node %d runs %d jobs at %d", key[0], key[1], used, e.at)
			}
		}
	}
	for i, j := range in.Jobs {
		s := segs[i]
		r := res.Jobs[i]
		if len(s) != 1 || r.Preemptions != 0 || r.Migrations != 0 {
			return fmt.Errorf("job %d: %d segments, %d preemptions, %d migrations", j.ID, len(s), r.Preemptions, r.Migrations)
		}
		if s[0].Start < j.Arrival {
			return fmt.Errorf("job %d starts at %d before its arrival %d", j.ID, s[0].Start, j.Arrival)
		}
		d := j.DurationOn(in.Clusters[s[0].Cluster].GPUType)
		if d <= 0 || s[0].End-s[0].Start != d {
			return fmt.Errorf("job %d ran %d s on cluster %d, its duration there is %d", j.ID, s[0].End-s[0].Start, s[0].Cluster, d)
		}
		if r.Finish != s[0].End {
			return fmt.Errorf("job %d: finish %d, segment ends %d", j.ID, r.Finish, s[0].End)
		}
	}
	return nil
}

func TestSchedulersInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	rules := []string{"hydra", "hydra-swap", "edf", "sjf-fastest", "allox", "chronus"}
	incr := Params{Penalty: DefaultPenalty, Budget: 30, Compare: CompareIncrement}
	for i := range 220 {
		homog := i%5 == 0
		in := randomHetero(r, fmt.Sprintf("r%d", i), homog)
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, rule := range rules {
			var p *Params
			if rule == "hydra" && i%2 == 1 {
				p = &incr
			}
			res, err := simcore.Simulate(context.Background(), &in, parse(t, rule, p), simcore.Options{RecordSegments: true})
			if err != nil {
				t.Fatalf("instance %d, %s: %v", i, rule, err)
			}
			if err := checkHydraModel(&in, res); err != nil {
				t.Fatalf("instance %d, %s: %v", i, rule, err)
			}
			if err := simcore.CheckInvariants(&in, res); err != nil {
				t.Fatalf("instance %d (homogeneous %v), %s: %v", i, homog, rule, err)
			}
		}
	}
}

func TestSchedulersRefuseMultiGPUJobs(t *testing.T) {
	in := simcore.Instance{Name: "m", Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 2}},
		Jobs: []simcore.Job{{ID: 1, Duration: 5, Workers: 1, GPUs: 1, Priority: 1}, {ID: 7, Arrival: 3, Duration: 5, Workers: 1, GPUs: 2, Priority: 1}}}
	for _, rule := range Rules() {
		_, err := simcore.Simulate(context.Background(), &in, parse(t, string(rule), nil), simcore.Options{})
		if err == nil || !strings.Contains(err.Error(), "scheduler "+string(rule)) || !strings.Contains(err.Error(), "job 7 uses 2 GPUs") {
			t.Errorf("%s: %v", rule, err)
		}
	}
}

// TestHydraHandSimulation: one A GPU (fast) and one B GPU (slow), a batch
// at 0 computed by hand with the multi-round search (see
// TestSearchHandTwoGPUsFourJobs, same jobs scaled): GPU A runs 4 then 1,
// GPU B runs 2 then 3.
func TestHydraHandSimulation(t *testing.T) {
	job := func(id int64, a, b, ddl int64) simcore.Job {
		return simcore.Job{ID: id, Duration: a, Workers: 1, GPUs: 1, Priority: 1, Deadline: ddl, TypeDurations: map[string]int64{"A": a, "B": b}}
	}
	in := simcore.Instance{Name: "hand",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1, GPUType: "A"}, {Nodes: 1, GPUsPerNode: 1, GPUType: "B"}},
		Jobs:     []simcore.Job{job(1, 2, 4, 0), job(2, 3, 3, 3), job(3, 6, 2, 0), job(4, 1, 5, 4)}}
	res, err := simcore.Simulate(context.Background(), &in, parse(t, "hydra", &Params{Penalty: 1000, Budget: 100, Compare: CompareAbsolute}), simcore.Options{RecordSegments: true})
	if err != nil {
		t.Fatal(err)
	}
	// A: job 4 [0,1), job 1 [1,3). B: job 2 [0,3), job 3 [3,5).
	want := map[int64][3]int64{4: {0, 0, 1}, 1: {0, 1, 3}, 2: {1, 0, 3}, 3: {1, 3, 5}}
	for i, j := range in.Jobs {
		r := res.Jobs[i]
		w := want[j.ID]
		if int64(r.Cluster) != w[0] || r.Start != w[1] || r.Finish != w[2] {
			t.Errorf("job %d: cluster %d [%d, %d), want cluster %d [%d, %d)", j.ID, r.Cluster, r.Start, r.Finish, w[0], w[1], w[2])
		}
	}
}

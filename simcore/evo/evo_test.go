package evo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// fixedAssignment puts each arrival on the cluster given for its id.
type fixedAssignment map[int64]int

func (f fixedAssignment) Allocate(a *simcore.Allocation) error {
	for _, i := range a.Arrivals() {
		a.Assign(i, f[a.Job(i).ID])
	}
	return nil
}

func evoWith(p Params, rank simcore.Ranking) *simcore.ListScheduler {
	e, err := New(p)
	if err != nil {
		panic(err)
	}
	return simcore.NewListScheduler("evo", e, rank, simcore.BestFit{})
}

// batchInstance: every job arrives at t = 0, so the only operation's
// fitness at t equals the final objective, and brute force over all
// assignments (each scored by a full simulation) gives the optimum.
func batchInstance(rng *rand.Rand, name string) *simcore.Instance {
	inst := &simcore.Instance{Name: name}
	for range 2 + rng.IntN(2) {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 1 + rng.IntN(2), GPUsPerNode: []int{2, 4}[rng.IntN(2)]})
	}
	for id := range 3 + rng.IntN(6) {
		for {
			w := []int{1, 2, 4}[rng.IntN(3)]
			r := 1 + rng.IntN(2)
			j := simcore.Job{ID: int64(id), Cluster: rng.IntN(len(inst.Clusters)), Duration: 600 + int64(rng.IntN(7200)), Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)}
			if j.FitsOn(inst.Clusters[j.Cluster]) {
				inst.Jobs = append(inst.Jobs, j)
				break
			}
		}
	}
	return inst
}

func TestEVOFindsBruteForceOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 73))
	p := DefaultParams()
	p.Population, p.Generations = 40, 60
	for i := range 25 {
		inst := batchInstance(rng, fmt.Sprintf("batch-%d", i))
		best := math.Inf(1)
		assign := make([]int, len(inst.Jobs))
		var walk func(k int)
		walk = func(k int) {
			if k == len(inst.Jobs) {
				fa := fixedAssignment{}
				for n, c := range assign {
					fa[inst.Jobs[n].ID] = c
				}
				res, err := simcore.Simulate(context.Background(), inst, simcore.NewListScheduler("fixed", fa, simcore.SRSF{}, simcore.BestFit{}), simcore.Options{})
				if err != nil {
					t.Fatal(err)
				}
				best = min(best, res.Metrics.Objective)
				return
			}
			for c := range inst.Clusters {
				if inst.Jobs[k].FitsOn(inst.Clusters[c]) {
					assign[k] = c
					walk(k + 1)
				}
			}
		}
		walk(0)
		res, err := simcore.Simulate(context.Background(), inst, evoWith(p, simcore.SRSF{}), simcore.Options{RecordOps: true})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Metrics.Objective-best) > 1e-9 {
			t.Errorf("%s (%d jobs): evo objective %.6f, brute-force optimum %.6f", inst.Name, len(inst.Jobs), res.Metrics.Objective, best)
		}
		if len(res.Ops) != 1 || math.Abs(res.Ops[0].EVOFitness-res.Metrics.Objective) > 1e-9 {
			t.Errorf("%s: fitness at t %+v differs from the final objective %.6f", inst.Name, res.Ops, res.Metrics.Objective)
		}
	}
}

// The seeded population holds the current assignment and survival is
// elitist, so no operation ends worse than MCT's assignment at t.
func TestEVONeverWorseThanMCTAtT(t *testing.T) {
	rng := rand.New(rand.NewPCG(79, 83))
	p := DefaultParams()
	p.Population, p.Generations = 8, 5
	ops := 0
	for i := range 60 {
		inst := randomInstance(rng, fmt.Sprintf("seed-%d", i))
		res, err := simcore.Simulate(context.Background(), inst, evoWith(p, simcore.FIFO{}), simcore.Options{RecordOps: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Ops {
			ops++
			if o.EVOFitness > o.MCTFitness+1e-12 {
				t.Fatalf("%s t=%d: evo %.6f worse than mct %.6f", inst.Name, o.Time, o.EVOFitness, o.MCTFitness)
			}
		}
	}
	if ops == 0 {
		t.Fatal("no EVO operation recorded")
	}
}

func TestEVOSwapKeepsFeasibility(t *testing.T) {
	rng := rand.New(rand.NewPCG(89, 97))
	for i := range 300 {
		nj, P := 2+rng.IntN(10), 2+rng.IntN(3)
		op := &evoOp{feas: make([][]int, nj)}
		genes := make([]int32, nj)
		for g := range nj {
			for p := range P {
				if rng.IntN(2) == 0 {
					op.feas[g] = append(op.feas[g], p)
				}
			}
			if len(op.feas[g]) == 0 {
				op.feas[g] = []int{rng.IntN(P)}
			}
			genes[g] = int32(op.feas[g][rng.IntN(len(op.feas[g]))])
			for p := range P {
				op.feasOn = append(op.feasOn, containsInt(op.feas[g], p))
			}
		}
		for range 20 {
			before := append([]int32(nil), genes...)
			op.mutate(rng, genes, nil)
			changed := 0
			for g, c := range genes {
				if !containsInt(op.feas[g], int(c)) {
					t.Fatalf("case %d: gene %d on infeasible cluster %d (feasible %v)", i, g, c, op.feas[g])
				}
				if c != before[g] {
					changed++
				}
			}
			if changed > 2 {
				t.Fatalf("case %d: a mutation changed %d genes", i, changed)
			}
		}
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Invariants on random instances × every ranking × every mode with evo.
func TestEVOInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(101, 103))
	p := DefaultParams()
	p.Population, p.Generations = 6, 4
	moved := 0
	n := 200
	if testing.Short() {
		n = 40
	}
	ranks := []simcore.Ranking{simcore.FIFO{}, simcore.SRSF{}, simcore.Lyra{}, simcore.SJF{}, simcore.SRTF{}}
	for i := range n {
		inst := randomInstance(rng, fmt.Sprintf("evoinv-%d", i))
		for _, rank := range ranks {
			for _, opts := range goldenModes() {
				opts.RecordSegments, opts.CheckPlans = true, true
				res, err := simcore.Simulate(context.Background(), inst, evoWith(p, rank), opts)
				if err != nil {
					t.Fatalf("%s %T %+v: %v", inst.Name, rank, opts, err)
				}
				if err := simcore.CheckInvariants(inst, res); err != nil {
					t.Fatalf("%s %T %+v: %v", inst.Name, rank, opts, err)
				}
				for _, sg := range res.Segments {
					if sg.Cluster != res.Jobs[sg.Job].Cluster {
						moved++
						break
					}
				}
			}
		}
	}
	if moved == 0 {
		t.Fatal("evo never moved a running job between clusters")
	}
}

func TestEVODeterministicAcrossWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(107, 109))
	for i := range 20 {
		inst := randomInstance(rng, fmt.Sprintf("det-%d", i))
		var prev *simcore.Result
		for _, w := range []int{1, 4, 1} {
			p := DefaultParams()
			p.Population, p.Generations, p.Workers, p.Seed = 12, 8, w, 5
			res, err := simcore.Simulate(context.Background(), inst, evoWith(p, simcore.SRSF{}), simcore.Options{RecordOps: true})
			if err != nil {
				t.Fatal(err)
			}
			for k := range res.Ops {
				res.Ops[k].WallMS = 0
			}
			if prev != nil && !reflect.DeepEqual(*prev, res) {
				t.Fatalf("%s: %d workers differ from 1", inst.Name, w)
			}
			prev = &res
		}
	}
}

func TestEVOBadParameters(t *testing.T) {
	for _, c := range []struct {
		mut  func(*Params)
		want string
	}{
		{func(p *Params) { p.Population = 1 }, "evo.population = 1"},
		{func(p *Params) { p.Generations = -1 }, "evo.generations = -1"},
		{func(p *Params) { p.Budget = 50 }, "evo.budget = 50"},
		{func(p *Params) { p.Mutation = 1.5 }, "evo.mutation = 1.5"},
		{func(p *Params) { p.Init = "mct" }, `evo.init = "mct"`},
	} {
		p := DefaultParams()
		c.mut(&p)
		reg := simcore.NewRegistry()
		Register(reg)
		_, err := reg.Parse("evo-fifo", simcore.Params{Sections: map[string]any{"evo": p}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error with %q", err, c.want)
		}
	}
}

// A job feasible on one cluster only keeps that cluster.
func TestEVOJobFeasibleOnOneCluster(t *testing.T) {
	inst := &simcore.Instance{Name: "one", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 8}, {Nodes: 1, GPUsPerNode: 2}}, Jobs: []simcore.Job{
		{ID: 1, Duration: 100, Workers: 1, GPUs: 8, Priority: 1},
		{ID: 2, Duration: 100, Workers: 1, GPUs: 8, Priority: 1, Arrival: 5},
		{ID: 3, Duration: 50, Workers: 1, GPUs: 2, Priority: 2, Arrival: 5, Cluster: 1},
	}}
	p := DefaultParams()
	p.Population, p.Generations = 4, 10
	res, err := simcore.Simulate(context.Background(), inst, evoWith(p, simcore.FIFO{}), simcore.Options{RecordSegments: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := simcore.CheckInvariants(inst, res); err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].Cluster != 0 || res.Jobs[1].Cluster != 0 {
		t.Fatalf("8-GPU jobs left cluster 0: %+v", res.Jobs)
	}
}

// MCT-all re-decides every Js job: its invariants hold, and on a batch
// (one operation, nothing assigned before) it equals simcore.MCT exactly.
func TestMCTAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(113, 127))
	for i := range 100 {
		inst := randomInstance(rng, fmt.Sprintf("mctall-%d", i))
		for _, opts := range goldenModes() {
			opts.RecordSegments, opts.CheckPlans = true, true
			res, err := simcore.Simulate(context.Background(), inst, simcore.NewListScheduler("mct-all", MCTAll{}, simcore.SRSF{}, simcore.BestFit{}), opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := simcore.CheckInvariants(inst, res); err != nil {
				t.Fatalf("%s %+v: %v", inst.Name, opts, err)
			}
		}
		batch := batchInstance(rng, fmt.Sprintf("mctall-batch-%d", i))
		a, _ := simcore.Simulate(context.Background(), batch, simcore.NewListScheduler("a", MCTAll{}, simcore.FIFO{}, simcore.BestFit{}), simcore.Options{})
		b, _ := simcore.Simulate(context.Background(), batch, simcore.NewListScheduler("b", simcore.MCT{}, simcore.FIFO{}, simcore.BestFit{}), simcore.Options{})
		if !reflect.DeepEqual(a.Jobs, b.Jobs) {
			t.Fatalf("%s: mct-all differs from mct on a batch", batch.Name)
		}
	}
}

// The children's member-set keys, updated through crossover and mutation,
// are the keys computed from their genomes.
func TestEVOIncrementalKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(227, 229))
	checked := 0
	for i := range 40 {
		inst := randomInstance(rng, fmt.Sprintf("keys-%d", i))
		if len(inst.Clusters) < 2 {
			continue
		}
		check := allocFunc(func(a *simcore.Allocation) error {
			if err := (simcore.MCT{}).Allocate(a); err != nil {
				return err
			}
			js := a.Schedulable()
			if len(js) < 2 {
				return nil
			}
			op := newEVOOp(a, DefaultParams(), js)
			random := func() individual {
				g := make([]int32, len(js))
				for k, f := range op.feas {
					g[k] = int32(f[rng.IntN(len(f))])
				}
				return individual{genes: g, keys: op.keys(g, nil)}
			}
			for range 20 {
				a, b := random(), random()
				var c1, c2 individual
				op.crossover(rng, a, b, &c1, &c2)
				for range rng.IntN(3) {
					op.mutate(rng, c1.genes, c1.keys)
					op.mutate(rng, c2.genes, c2.keys)
				}
				for _, c := range []individual{c1, c2} {
					if want := op.keys(c.genes, nil); !slices.Equal(c.keys, want) {
						t.Fatalf("%s: keys %v, from the genome %v", inst.Name, c.keys, want)
					}
					checked++
				}
			}
			return nil
		})
		if _, err := simcore.Simulate(context.Background(), inst, simcore.NewListScheduler("keys", check, simcore.SRSF{}, simcore.BestFit{}), simcore.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d children checked", checked)
	}
}

// The plan cache finds every key it was given, through collisions and
// growth, and reports queued and planned keys as taken.
func TestEVOEvalCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(233, 239))
	var c evalCache
	want := map[setKey]clusterEval{}
	var keys []setKey
	for round := range 20 {
		batch := 50 + rng.IntN(400)
		c.reserve(batch)
		var slots []int
		var added []setKey
		for range batch {
			var k setKey
			if len(keys) > 0 && rng.IntN(4) == 0 {
				k = keys[rng.IntN(len(keys))] // already there
			} else {
				// Few distinct low bits: many keys share a home slot.
				k = setKey{cluster: rng.IntN(3), h1: uint64(rng.IntN(8)) | rng.Uint64()<<40, h2: rng.Uint64()}
			}
			slot, ok := c.queue(k)
			_, seen := want[k]
			if ok == seen {
				t.Fatalf("round %d: queue(%v) = %v, key seen before: %v", round, k, ok, seen)
			}
			if ok {
				want[k] = clusterEval{jobs: len(want) + 1}
				keys = append(keys, k)
				slots = append(slots, slot)
				added = append(added, k)
			}
		}
		for i, k := range added {
			sl := &c.slots[slots[i]]
			sl.val, sl.state = want[k], slotPlanned
		}
		for k, v := range want {
			if got := c.get(k); got != v {
				t.Fatalf("round %d: get(%v) = %+v, want %+v", round, k, got, v)
			}
		}
	}
	if len(c.slots) < 2*len(want) {
		t.Fatalf("%d slots for %d keys", len(c.slots), len(want))
	}
}

// Survival by merging equals sorting parents ∪ children and cutting at n,
// with ties in fitness, copies of one genome, and NaN fitness.
func TestEVOSurviveMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(257, 263))
	for c := range 500 {
		genome := func() individual {
			g := make([]int32, 4)
			for k := range g {
				g[k] = int32(rng.IntN(2))
			}
			fit := float64(rng.IntN(4))
			if rng.IntN(20) == 0 {
				fit = math.NaN()
			}
			// Equal genomes have equal hashes (and, through fix, fitness).
			h := uint64(g[0]) | uint64(g[1])<<1 | uint64(g[2])<<2 | uint64(g[3])<<3
			return individual{genes: g, fit: fit, h1: h, h2: h}
		}
		// Fitness as a function of the genome, so copies agree.
		fitOf := map[uint64]float64{}
		fix := func(x individual) individual {
			if f, ok := fitOf[x.h1]; ok {
				x.fit = f
			} else {
				fitOf[x.h1] = x.fit
			}
			return x
		}
		n := 1 + rng.IntN(8)
		var pop, children []individual
		for range n {
			pop = append(pop, fix(genome()))
		}
		for range 1 + rng.IntN(9) {
			children = append(children, fix(genome()))
		}
		slices.SortFunc(pop, lessIndividual)
		union := append(slices.Clone(pop), children...)
		slices.SortFunc(union, lessIndividual)
		next, dropped := survive(pop, slices.Clone(children), n, nil, nil)
		if len(next) != n || len(next)+len(dropped) != len(union) {
			t.Fatalf("case %d: %d kept, %d dropped of %d", c, len(next), len(dropped), len(union))
		}
		for k := range next {
			if lessIndividual(next[k], union[k]) != 0 || !slices.Equal(next[k].genes, union[k].genes) {
				t.Fatalf("case %d: survivor %d is %v (%v), sort gives %v (%v)", c, k, next[k].genes, next[k].fit, union[k].genes, union[k].fit)
			}
		}
	}
}

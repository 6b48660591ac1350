package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// levelDiff is an allocator that, at every operation, plans random member
// sets of every cluster with the level planner and with the list
// scheduler's what-if planner and fails on any difference in the fitness
// contribution (compared bit for bit), then allocates as MCT.
type levelDiff struct {
	t      *testing.T
	rng    *rand.Rand
	sets   int // member sets tried per cluster and operation
	checks *int
}

func (d levelDiff) Allocate(a *Allocation) error {
	if err := (MCT{}).Allocate(a); err != nil {
		return err
	}
	s := a.s
	js := a.Schedulable()
	if len(js) == 0 {
		return nil
	}
	op := newEVOOp(s, DefaultEVOParams(), js)
	if op.levels == nil {
		d.t.Fatalf("%s: level planner not used (backfill %v)", s.inst.Name, s.opts.Backfill)
	}
	for p, order := range op.rankOrder {
		var sets [][]int32
		for range d.sets {
			var ranks []int32
			keep := d.rng.Float64()
			for r := range order {
				if d.rng.Float64() < keep {
					ranks = append(ranks, int32(r))
				}
			}
			sets = append(sets, ranks)
			// A neighbour sharing a prefix, to exercise the undo.
			if len(ranks) > 1 {
				cut := d.rng.IntN(len(ranks))
				nb := slices.Clone(ranks[:cut])
				for r := int(ranks[cut]) + 1; r < len(order); r++ {
					if d.rng.IntN(2) == 0 {
						nb = append(nb, int32(r))
					}
				}
				sets = append(sets, nb)
			}
		}
		if d.rng.IntN(2) == 0 {
			slices.SortFunc(sets, slices.Compare)
		}
		for _, ranks := range sets {
			got, err := op.levels[0][p].plan(s, p, ranks)
			if err != nil {
				return err
			}
			members := make([]int, len(ranks))
			for k, r := range ranks {
				members[k] = op.js[order[r]]
			}
			want, err := op.workers[0].plan(p, members)
			if err != nil {
				return err
			}
			if got != want {
				d.t.Fatalf("%s t=%d cluster %d members %v: level planner %+v, what-if planner %+v", s.inst.Name, s.now, p, members, got, want)
			}
			for k, j := range members {
				if got, want := op.levels[0][p].starts[k], op.workers[0].sims[p].planStart[j]; got != want {
					d.t.Fatalf("%s t=%d cluster %d: job %d starts at %d, what-if planner %d", s.inst.Name, s.now, p, s.inst.Jobs[j].ID, got, want)
				}
			}
			*d.checks++
		}
	}
	// The pure-MCT assignment and the all-start-now test of the seeded
	// initialisation agree with their what-if planner versions.
	want, err := op.pureMCT()
	if err != nil {
		return err
	}
	got, err := op.mctLevel()
	if err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		d.t.Fatalf("%s t=%d: pure MCT on level planners %v, on what-if planners %v", s.inst.Name, s.now, got, want)
	}
	for _, genes := range [][]int32{got, d.randomGenes(op)} {
		if a, b := op.startsAllNowLevel(genes), op.startsAllNow(genes); a != b {
			d.t.Fatalf("%s t=%d: starts all now on level planners %v, on what-if planners %v", s.inst.Name, s.now, a, b)
		}
	}
	return nil
}

func (d levelDiff) randomGenes(op *evoOp) []int32 {
	g := make([]int32, len(op.js))
	for k, f := range op.feas {
		g[k] = int32(f[d.rng.IntN(len(f))])
	}
	return g
}

// The level planner gives exactly the what-if planner's fitness
// contribution for random member sets, at every operation of random
// instances (fixed jobs, running jobs off their user cluster, typed GPUs,
// deadlines), with both placers and every ranking, in both modes it
// serves.
func TestLevelPlannerMatchesWhatIf(t *testing.T) {
	rng := rand.New(rand.NewPCG(211, 223))
	checks := 0
	ranks := []Ranking{FIFO{}, SRSF{}, Lyra{}, SJF{}, SRTF{}}
	for i := range 150 {
		inst := randomInstance(rng, fmt.Sprintf("level-%d", i))
		if i%5 == 4 {
			inst = wideJobsInstance(rng, fmt.Sprintf("level-wide-%d", i))
		}
		if i%3 == 0 { // typed GPUs and deadlines
			for c := range inst.Clusters {
				inst.Clusters[c].GPUType = []string{"a", "b"}[c%2]
			}
			for k := range inst.Jobs {
				j := &inst.Jobs[k]
				j.TypeDurations = map[string]int64{"a": j.Duration, "b": 1 + j.Duration*int64(1+rng.IntN(3))/2}
				if rng.IntN(2) == 0 {
					j.Deadline = j.Arrival + j.Duration*int64(1+rng.IntN(4))
				}
			}
		}
		placers := []Placer{BestFit{}, RoundRobin{}}
		for _, b := range []Backfill{BackfillNone, BackfillGreedy} {
			for _, tr := range []Trigger{TriggerArrival, TriggerArrivalCompletion} {
				d := levelDiff{t: t, rng: rng, sets: 4, checks: &checks}
				sched := NewListScheduler("level-diff", d, ranks[i%len(ranks)], placers[i%2])
				if _, err := Simulate(context.Background(), inst, sched, Options{Backfill: b, Trigger: tr}); err != nil {
					t.Fatalf("%s: %v", inst.Name, err)
				}
			}
		}
	}
	if checks < 10000 {
		t.Fatalf("only %d member sets compared", checks)
	}
}

// levelPlanning is off where the level planner would not be exact.
func TestLevelPlanningScope(t *testing.T) {
	s := &sim{list: NewListScheduler("x", MCT{}, FIFO{}, BestFit{})}
	for _, c := range []struct {
		b    Backfill
		want bool
	}{{BackfillNone, true}, {BackfillGreedy, true}, {BackfillStrict, false}, {BackfillPreemptive, false}, {BackfillConservative, false}} {
		s.opts = Options{Backfill: c.b}
		if got := levelPlanning(s); got != c.want {
			t.Errorf("backfill %v: %v, want %v", c.b, got, c.want)
		}
	}
	s.opts = Options{alwaysReplan: true}
	if levelPlanning(s) {
		t.Error("replan-all reference mode uses the level planner")
	}
	s.opts = Options{}
	s.list = NewListScheduler("x", MCT{}, FIFO{}, placerFunc(func(free []int, w, r int, place []int) { BestFit{}.Place(free, w, r, place) }))
	if levelPlanning(s) {
		t.Error("an unknown placer uses the level planner")
	}
}

type placerFunc func(free []int, w, r int, place []int)

func (f placerFunc) Place(free []int, w, r int, place []int) { f(free, w, r, place) }

// BenchmarkLevelPlanner plans random member sets of 100 jobs (the share of
// one cluster at |Js| = 1,000 in BenchmarkEVOOperation) on one cluster of
// 20 nodes × 8 GPUs, in lexicographic order as EVO plans them; ns/job is
// the CPU time per placement.
func BenchmarkLevelPlanner(b *testing.B) {
	inst := evoBenchInstance(1000)
	rank := SRSF{}
	var lp *levelPlanner
	var s *sim
	grab := allocFunc(func(a *Allocation) error {
		if err := (MCT{}).Allocate(a); err != nil {
			return err
		}
		s = a.s
		op := newEVOOp(s, DefaultEVOParams(), a.Schedulable())
		lp = op.levels[0][0]
		return nil
	})
	if _, err := Simulate(context.Background(), inst, NewListScheduler("grab", grab, rank, BestFit{}), Options{}); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	sets := make([][]int32, 2000)
	jobs := 0
	for k := range sets {
		for r := range lp.jobs {
			if rng.IntN(10) == 0 {
				sets[k] = append(sets[k], int32(r))
			}
		}
		jobs += len(sets[k])
	}
	slices.SortFunc(sets, slices.Compare)
	b.ResetTimer()
	start := processCPU(b)
	for b.Loop() {
		for _, set := range sets {
			if _, err := lp.plan(s, 0, set); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric((processCPU(b)-start)*1e9/float64(b.N*jobs), "cpu-ns/job")
}

type allocFunc func(a *Allocation) error

func (f allocFunc) Allocate(a *Allocation) error { return f(a) }

// End to end: EVO decoding with the level planner gives the same results
// as EVO decoding with the list scheduler's what-if planner in its
// replan-all reference mode (where the level planner is off), on random
// instances, every ranking, both placers, seeded and random
// initialisation, in the modes the level planner serves.
func TestEVOLevelPlannerSameResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(241, 251))
	ranks := []Ranking{FIFO{}, SRSF{}, Lyra{}, SJF{}, SRTF{}}
	placers := []Placer{BestFit{}, RoundRobin{}}
	n := 60
	if testing.Short() {
		n = 15
	}
	for i := range n {
		inst := randomInstance(rng, fmt.Sprintf("evo-level-%d", i))
		p := DefaultEVOParams()
		p.Population, p.Generations, p.Seed = 10, 12, uint64(i)
		p.Init = []string{"seeded", "random"}[i%2]
		e, err := NewEVO(p)
		if err != nil {
			t.Fatal(err)
		}
		sched := NewListScheduler("evo", e, ranks[i%len(ranks)], placers[(i/2)%2])
		for _, b := range []Backfill{BackfillNone, BackfillGreedy} {
			for _, tr := range []Trigger{TriggerArrival, TriggerArrivalCompletion} {
				opts := Options{Backfill: b, Trigger: tr, RecordOps: true}
				got, err := Simulate(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Simulate(context.Background(), inst, sched, WithAlwaysReplan(opts))
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range []*Result{&got, &want} {
					for k := range r.Ops {
						r.Ops[k].WallMS = 0
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %v %v: results differ from the what-if planner's", inst.Name, b, tr)
				}
			}
		}
	}
}

// wideJobsInstance has jobs of up to 12 workers on clusters of up to 6
// nodes, so that starts of more than four workers are exercised.
func wideJobsInstance(rng *rand.Rand, name string) *Instance {
	inst := &Instance{Name: name}
	for range 1 + rng.IntN(3) {
		inst.Clusters = append(inst.Clusters, Cluster{Nodes: 2 + rng.IntN(5), GPUsPerNode: []int{2, 4, 8}[rng.IntN(3)]})
	}
	t := int64(0)
	for id := range 5 + rng.IntN(25) {
		t += int64(rng.IntN(40))
		for {
			w := []int{1, 1, 2, 4, 8}[rng.IntN(5)]
			r := 1 + rng.IntN(12)
			j := Job{ID: int64(id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)), Duration: 1 + int64(rng.IntN(300)),
				Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)}
			if j.FitsOn(inst.Clusters[j.Cluster]) {
				inst.Jobs = append(inst.Jobs, j)
				break
			}
		}
	}
	return inst
}

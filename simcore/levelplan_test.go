package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
)

// levelDiff is an allocator that, at every operation, plans random member
// sets of every cluster through the allocation seam with the level planner
// (WhatIfs) and with the list scheduler's what-if planner
// (ReferenceWhatIfs) and fails on any difference in a start, then
// allocates as MCT. (simcore/evo's tests compare the fitness
// contributions summed from these starts, bit for bit.)
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
	order := make([][]int, a.Clusters())
	for p := range order {
		var jobs []int
		for _, j := range js {
			if a.Feasible(j, p) {
				jobs = append(jobs, j)
			}
		}
		for _, i := range a.RankOrder(p, jobs) {
			order[p] = append(order[p], jobs[i])
		}
	}
	level, ref := a.WhatIfs(1, order)[0], a.ReferenceWhatIfs(1, order)[0]
	for p, cands := range order {
		if !level[p].Level() || ref[p].Level() {
			d.t.Fatalf("%s: level planner not used (backfill %v)", s.inst.Name, s.opts.Backfill)
		}
		var sets [][]int32
		for range d.sets {
			var ranks []int32
			keep := d.rng.Float64()
			for r := range cands {
				if d.rng.Float64() < keep {
					ranks = append(ranks, int32(r))
				}
			}
			sets = append(sets, ranks)
			// A neighbour sharing a prefix, to exercise the undo.
			if len(ranks) > 1 {
				cut := d.rng.IntN(len(ranks))
				nb := slices.Clone(ranks[:cut])
				for r := int(ranks[cut]) + 1; r < len(cands); r++ {
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
		var last []int64
		for _, ranks := range sets {
			from, err := level[p].Plan(ranks)
			if err != nil {
				return err
			}
			if _, err := ref[p].Plan(ranks); err != nil {
				return err
			}
			got, want := level[p].Starts(), ref[p].Starts()
			if !slices.Equal(got, want) {
				d.t.Fatalf("%s t=%d cluster %d ranks %v: level planner starts %v, what-if planner %v", s.inst.Name, s.now, p, ranks, got, want)
			}
			if !slices.Equal(got[:from], last[:from]) {
				d.t.Fatalf("%s t=%d cluster %d: starts before %d changed: %v, last plan %v", s.inst.Name, s.now, p, from, got, last)
			}
			last = slices.Clone(got)
			*d.checks++
		}
	}
	return nil
}

// The level planner gives exactly the what-if planner's starts for random
// member sets, at every operation of random instances (fixed jobs, running
// jobs off their user cluster, typed GPUs, deadlines), with both placers
// and every ranking, in both modes it serves.
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
	s.opts = Options{}
	s.replan = true
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

type allocFunc func(a *Allocation) error

func (f allocFunc) Allocate(a *Allocation) error { return f(a) }

// BenchmarkLevelPlanner plans random member sets of 100 jobs (the share of
// one cluster at |Js| = 1,000 in BenchmarkEVOOperation) on one cluster of
// 20 nodes × 8 GPUs, in lexicographic order as EVO plans them; ns/job is
// the CPU time per placement.
func BenchmarkLevelPlanner(b *testing.B) {
	inst := levelBenchInstance(1000)
	var wp *WhatIfPlanner
	grab := allocFunc(func(a *Allocation) error {
		if err := (MCT{}).Allocate(a); err != nil {
			return err
		}
		js := a.Schedulable()
		var jobs []int
		for _, i := range a.RankOrder(0, js) {
			jobs = append(jobs, js[i])
		}
		wp = a.WhatIfs(1, [][]int{jobs})[0][0]
		return nil
	})
	if _, err := Simulate(context.Background(), inst, NewListScheduler("grab", grab, SRSF{}, BestFit{}), Options{}); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	sets := make([][]int32, 2000)
	jobs := 0
	for k := range sets {
		for r := range wp.Candidates() {
			if rng.IntN(10) == 0 {
				sets[k] = append(sets[k], int32(r))
			}
		}
		jobs += len(sets[k])
	}
	slices.SortFunc(sets, slices.Compare)
	b.ResetTimer()
	start := levelCPU(b)
	for b.Loop() {
		for _, set := range sets {
			if _, err := wp.Plan(set); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric((levelCPU(b)-start)*1e9/float64(b.N*jobs), "cpu-ns/job")
}

// levelBenchInstance is simcore/evo's benchmark instance: n jobs arriving
// together at t = 0 on 10 clusters × 20 nodes × 8 GPUs.
func levelBenchInstance(n int) *Instance {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	inst := &Instance{Name: fmt.Sprint(n)}
	for range 10 {
		inst.Clusters = append(inst.Clusters, Cluster{Nodes: 20, GPUsPerNode: 8})
	}
	for id := range n {
		w := []int{1, 2, 4, 8}[rng.IntN(4)]
		r := []int{1, 1, 1, 2, 4}[rng.IntN(5)]
		inst.Jobs = append(inst.Jobs, Job{ID: int64(id), Cluster: rng.IntN(10), Duration: 60 + int64(rng.ExpFloat64()*7200),
			Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)})
	}
	return inst
}

// levelCPU is the process CPU time in seconds (user + system).
func levelCPU(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
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

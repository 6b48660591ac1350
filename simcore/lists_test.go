package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// checkLists verifies the engine's incremental job lists against their
// definitions: open is the active jobs not in Jn in (arrival, id) order,
// running holds exactly the running jobs (less Jn under lazyJn), and the
// finish heap holds exactly the Jn jobs with their finish times.
func checkLists(s *sim) error {
	var open, run []int
	for _, j := range s.active {
		if s.state[j] == done {
			return fmt.Errorf("t=%d: finished job %d still active", s.now, j)
		}
		if !s.fixed[j] {
			open = append(open, j)
		}
		if s.state[j] == running && !(s.lazyJn && s.fixed[j]) {
			run = append(run, j)
		}
	}
	if !slices.Equal(open, s.open) {
		return fmt.Errorf("t=%d: open %v, want %v", s.now, s.open, open)
	}
	got := slices.Clone(s.running)
	sort.Ints(got)
	sort.Ints(run)
	if !slices.Equal(got, run) {
		return fmt.Errorf("t=%d: running %v, want %v", s.now, got, run)
	}
	for i, j := range s.running {
		if int(s.runAt[j]) != i {
			return fmt.Errorf("t=%d: runAt[%d] = %d, want %d", s.now, j, s.runAt[j], i)
		}
	}
	var heap, fixed []string
	for _, e := range s.ends.e {
		heap = append(heap, fmt.Sprint(e.j, "@", e.at))
	}
	for _, j := range s.active {
		if s.fixed[j] {
			fixed = append(fixed, fmt.Sprint(j, "@", s.updated[j]+s.rem[j]))
		}
	}
	sort.Strings(heap)
	sort.Strings(fixed)
	if !slices.Equal(heap, fixed) {
		return fmt.Errorf("t=%d: finish heap %v, want %v", s.now, heap, fixed)
	}
	for i := 1; i < len(s.ends.e); i++ {
		if s.ends.e[(i-1)/2].at > s.ends.e[i].at {
			return fmt.Errorf("t=%d: finish heap out of order at %d", s.now, i)
		}
	}
	return nil
}

// The lists execute keeps incrementally match a recount after every
// operation, on random and long-queue instances, every scheduler and mode.
func TestEngineListsMatchDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	modes := append(goldenModes(), Options{Backfill: BackfillStrict}, Options{Backfill: BackfillPreemptive, PreemptOverhead: 5})
	insts := goldenInstances()[95:] // five small, ten long-queue ones
	for i := range 20 {
		insts = append(insts, randomInstance(rng, fmt.Sprintf("lists-%d", i)))
	}
	checked := 0
	for _, inst := range insts {
		for _, spec := range allSchedulerSpecs() {
			for m, opts := range modes {
				if (opts.Backfill == BackfillStrict || opts.Backfill == BackfillPreemptive) && spec == "spark" {
					opts.Backfill = BackfillNone // keep the spec list simple; spark is mct+fifo+roundrobin
				}
				sched := schedulerFor(t, spec)
				if err := checkMode(inst, sched, opts); err != nil {
					continue
				}
				if opts.Objective == (Objective{}) {
					opts.Objective = DefaultObjective()
				}
				s := newSim(context.Background(), inst, sched, opts, testHooks{})
				var bad error
				s.opts.OnOperation = func(int64, int, int) {
					if bad == nil {
						bad = checkLists(s)
						checked++
					}
				}
				if err := s.run(); err != nil {
					t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, err)
				}
				if bad != nil {
					t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, bad)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no operation was checked")
	}
}

// The finish heap pops in time order whatever the order of pushes.
func TestFinishHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for range 200 {
		var h finishHeap
		var want []int64
		for j := range 1 + rng.IntN(60) {
			at := int64(rng.IntN(30))
			h.push(at, j)
			want = append(want, at)
			if rng.IntN(4) == 0 && h.len() > 0 { // interleave pops
				m := h.min()
				h.pop()
				slices.Sort(want)
				if want[0] != m {
					t.Fatalf("popped %d, want %d", m, want[0])
				}
				want = want[1:]
			}
		}
		slices.Sort(want)
		for _, w := range want {
			if m := h.min(); m != w {
				t.Fatalf("min %d, want %d", m, w)
			}
			h.pop()
		}
		if h.len() != 0 {
			t.Fatal("heap not empty")
		}
	}
}

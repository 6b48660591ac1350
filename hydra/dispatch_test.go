package hydra

import (
	"slices"
	"testing"
)

// dispatchProblem: GPU 0 type A idle, GPU 1 type B idle, GPU 2 type A busy.
//
//	job  A   B   due
//	 1   50  20  100
//	 2   10  30  50
//	 3    5   5  –
//	 4    3   8  –
//	 5    5   9  4  (cannot make it: fastest 5 > 4)
func dispatchProblem() *Problem {
	return &Problem{Types: 2, GPUs: []GPU{{Type: 0}, {Type: 1}, {Type: 0, Offset: 7}}, Jobs: []Job{
		{ID: 1, Dur: []int64{50, 20}, Due: 100},
		{ID: 2, Dur: []int64{10, 30}, Due: 50},
		{ID: 3, Dur: []int64{5, 5}, Due: NoDue},
		{ID: 4, Dur: []int64{3, 8}, Due: NoDue},
		{ID: 5, Dur: []int64{5, 9}, Due: 4},
	}}
}

func TestEDFHand(t *testing.T) {
	p := dispatchProblem()
	// Order: 5 (due 4), 2 (50), 1 (100), then 4 (fastest 3), 3 (5).
	// 5 → fastest idle type A → GPU 0; 2 → only B idle → GPU 1. Full.
	s, err := EDF(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := queueIDs(p, s); !slices.EqualFunc(got, [][]int64{{5}, {2}, {}}, slices.Equal) {
		t.Fatalf("EDF: %v", got)
	}
	// Without job 5: 2 → A (GPU 0), 1 → B (GPU 1).
	p.Jobs = p.Jobs[:4]
	s, _ = EDF(p)
	if got := queueIDs(p, s); !slices.EqualFunc(got, [][]int64{{2}, {1}, {}}, slices.Equal) {
		t.Fatalf("EDF without job 5: %v", got)
	}
}

func TestSJFFastestHand(t *testing.T) {
	p := dispatchProblem()
	// Lists — A: 4(3), 3(5), 5(5), 2(10), 1(50); B: 3(5), 4(8), 5(9), 1(20), 2(30).
	// Step 1: heads 4 on A (3), 3 on B (5) → 4 to GPU 0.
	// Step 2: only B idle: head 3 (5) → GPU 1.
	s, err := SJFFastest(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := queueIDs(p, s); !slices.EqualFunc(got, [][]int64{{4}, {3}, {}}, slices.Equal) {
		t.Fatalf("sjf-fastest: %v", got)
	}
	// Two idle A GPUs: 4 then 3 (ties 3 and 5 at 5 s on A: smaller id).
	p.GPUs = []GPU{{Type: 0}, {Type: 0}}
	s, _ = SJFFastest(p)
	if got := queueIDs(p, s); !slices.EqualFunc(got, [][]int64{{4}, {3}}, slices.Equal) {
		t.Fatalf("sjf-fastest on two A GPUs: %v", got)
	}
}

func TestChronusHand(t *testing.T) {
	p := dispatchProblem()
	// Admitted (SLO): 2 (fastest 10 ≤ 50), 1 (20 ≤ 100); 5 cannot make
	// its deadline and is best effort. SLO in EDF order: 2 → A (GPU 0),
	// 1 → B (GPU 1); nothing idle is left for best-effort jobs.
	s, err := Chronus(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := queueIDs(p, s); !slices.EqualFunc(got, [][]int64{{2}, {1}, {}}, slices.Equal) {
		t.Fatalf("chronus: %v", got)
	}
	// Only best-effort jobs and three idle GPUs: 4, 3, 5 (fastest 3, 5, 5)
	// each get a GPU, chosen by the seeded hash; every job placed once.
	p.Jobs = p.Jobs[2:]
	p.GPUs[2].Offset = 0
	for seed := range uint64(20) {
		s, err := Chronus(p, seed)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.Check(p); err != nil || n != 3 {
			t.Fatalf("seed %d: %d placed, %v", seed, n, err)
		}
		again, _ := Chronus(p, seed)
		if !slices.EqualFunc(s.Queues, again.Queues, slices.Equal) {
			t.Fatal("same seed, different placement")
		}
	}
}

package hydra

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteAssign is the minimum over every injective row → column map.
func bruteAssign(cost [][]int64) (int64, bool) {
	n, m := len(cost), len(cost[0])
	used := make([]bool, m)
	best, found := int64(0), false
	var rec func(i int, sum int64)
	rec = func(i int, sum int64) {
		if i == n {
			if !found || sum < best {
				best, found = sum, true
			}
			return
		}
		for j := range m {
			if used[j] || cost[i][j] == Forbidden {
				continue
			}
			used[j] = true
			rec(i+1, sum+cost[i][j])
			used[j] = false
		}
	}
	rec(0, 0)
	return best, found
}

func TestAssignHand(t *testing.T) {
	// By hand: row 0 → column 1 (1), row 1 → column 0 (2), row 2 →
	// column 2 (2): 5; every other permutation costs at least 6.
	cost := [][]int64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}
	cols, total, err := Assign(cost)
	if err != nil {
		t.Fatal(err)
	}
	if total != 5 || !slices.Equal(cols, []int{1, 0, 2}) {
		t.Fatalf("cols %v total %d, want [1 0 2] 5", cols, total)
	}
	if _, _, err := Assign([][]int64{{Forbidden, Forbidden}, {1, 2}}); err == nil {
		t.Fatal("a row with no allowed column was assigned")
	}
	if _, _, err := Assign([][]int64{{1}, {2}}); err == nil {
		t.Fatal("more rows than columns was assigned")
	}
}

func TestAssignEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		n := 1 + r.IntN(6)
		m := n + r.IntN(3)
		cost := make([][]int64, n)
		for i := range cost {
			cost[i] = make([]int64, m)
			for j := range cost[i] {
				cost[i][j] = r.Int64N([]int64{3, 20, 1 << 40}[trial%3])
				if r.IntN(6) == 0 {
					cost[i][j] = Forbidden
				}
			}
		}
		want, ok := bruteAssign(cost)
		cols, total, err := Assign(cost)
		if !ok {
			if err == nil {
				t.Fatalf("trial %d: infeasible, but Assign returned %v", trial, cols)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v (brute force %d)", trial, err, want)
		}
		if total != want {
			t.Fatalf("trial %d: total %d, brute force %d (cost %v)", trial, total, want, cost)
		}
		var sum int64
		seen := map[int]bool{}
		for i, j := range cols {
			if seen[j] || cost[i][j] == Forbidden {
				t.Fatalf("trial %d: bad assignment %v", trial, cols)
			}
			seen[j] = true
			sum += cost[i][j]
		}
		if sum != total {
			t.Fatalf("trial %d: total %d but the entries sum to %d", trial, total, sum)
		}
	}
}

// bruteAlloX is the minimum total completion time of the waiting jobs over
// every assignment of jobs to GPUs, each GPU running its jobs in SPT order
// after its offset (optimal for a fixed assignment).
func bruteAlloX(p *Problem) int64 {
	nj, nk := len(p.Jobs), len(p.GPUs)
	gpuOf := make([]int, nj)
	best := int64(-1)
	var rec func(j int)
	rec = func(j int) {
		if j == nj {
			var total int64
			for k := range nk {
				var items []Item
				for i := range nj {
					if gpuOf[i] == k {
						items = append(items, p.itemOn(i, p.GPUs[k].Type))
					}
				}
				total += SequenceCost(SPT(items), p.GPUs[k].Offset).Completion
			}
			if best < 0 || total < best {
				best = total
			}
			return
		}
		for k := range nk {
			if p.Jobs[j].Dur[p.GPUs[k].Type] > 0 {
				gpuOf[j] = k
				rec(j + 1)
			}
		}
	}
	rec(0)
	return best
}

func scheduleCompletion(p *Problem, s Schedule) int64 {
	var total int64
	for k, q := range s.Queues {
		items := make([]Item, len(q))
		for i, j := range q {
			items[i] = p.itemOn(j, p.GPUs[k].Type)
		}
		total += SequenceCost(items, p.GPUs[k].Offset).Completion
	}
	return total
}

func TestAlloXEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for trial := range 300 {
		p := randomProblem(r, 1+trial%3, 1+trial%3, 1+trial%7, 0.3)
		s, err := AlloX(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.Check(p); err != nil || n != len(p.Jobs) {
			t.Fatalf("trial %d: %d placed: %v", trial, n, err)
		}
		if got, want := scheduleCompletion(p, s), bruteAlloX(p); got != want {
			t.Fatalf("trial %d: total completion %d, brute force %d", trial, got, want)
		}
		// Each queue is in SPT order (the matching's reversed positions).
		for k, q := range s.Queues {
			for i := 1; i < len(q); i++ {
				if p.Jobs[q[i-1]].Dur[p.GPUs[k].Type] > p.Jobs[q[i]].Dur[p.GPUs[k].Type] {
					t.Fatalf("trial %d gpu %d: queue not shortest first", trial, k)
				}
			}
		}
	}
}

// TestAlloXHand: one fast and one slow GPU, both idle. Jobs (fast, slow):
// a (1, 3), b (2, 6), c (4, 12). All on the fast GPU: 1+3+7 = 11. Moving c
// to the slow one: 1+3 + 12 = 16; moving a: 3 + (2+6) = 11. Ties at 11:
// the matching's optimum is 11.
func TestAlloXHand(t *testing.T) {
	p := &Problem{Types: 2, GPUs: []GPU{{Type: 0}, {Type: 1}}, Jobs: []Job{
		{ID: 1, Dur: []int64{1, 3}, Due: NoDue},
		{ID: 2, Dur: []int64{2, 6}, Due: NoDue},
		{ID: 3, Dur: []int64{4, 12}, Due: NoDue},
	}}
	s, err := AlloX(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := scheduleCompletion(p, s); got != 11 {
		t.Fatalf("total completion %d, want 11 (%v)", got, queueIDs(p, s))
	}
	// A busy fast GPU (offset 20) pushes everything to the slow one:
	// 3 + 9 + 21 = 33 there, against ≥ 21 for any single job on the fast one.
	p.GPUs[0].Offset = 20
	s, err = AlloX(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := queueIDs(p, s); !slices.EqualFunc(got, [][]int64{{}, {1, 2, 3}}, slices.Equal) {
		t.Fatalf("busy fast GPU: %v", got)
	}
}

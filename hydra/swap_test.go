package hydra

import (
	"slices"
	"testing"
)

func ids(items []Item) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

func TestSwapHeuristicHand(t *testing.T) {
	cases := []struct {
		name   string
		items  []Item
		offset int64
		trace  [][]int64 // every order, SPT first
	}{
		{
			name:  "no late job: SPT unchanged",
			items: []Item{{ID: 2, Dur: 3, Due: 10}, {ID: 1, Dur: 1, Due: NoDue}},
			trace: [][]int64{{1, 2}},
		},
		{
			// SPT 1,2,3 completes at 1,3,6; job 3 (due 3) is late. Move 2
			// after it: 1,3,2 (1,4,6): 3 still late. Move 1 after it:
			// 3,1,2 (3,4,6): none late, stop.
			name:  "the window walks to the front",
			items: []Item{{ID: 3, Dur: 3, Due: 3}, {ID: 1, Dur: 1, Due: NoDue}, {ID: 2, Dur: 2, Due: NoDue}},
			trace: [][]int64{{1, 2, 3}, {1, 3, 2}, {3, 1, 2}},
		},
		{
			// SPT 1,2,3 (d 2,3,4; due 2,5,6) completes at 2,5,9: 3 late.
			// Move 2 after 3: 1,3,2 at 2,6,9: 2 is now late (9 > 5) and
			// joins the window [1,2]. Move 1 after 2: 3,2,1 at 4,7,9 — the
			// window reached the front: stop, however late 2 and 1 are.
			name:  "a moved job that is late joins the window",
			items: []Item{{ID: 1, Dur: 2, Due: 2}, {ID: 2, Dur: 3, Due: 5}, {ID: 3, Dur: 4, Due: 6}},
			trace: [][]int64{{1, 2, 3}, {1, 3, 2}, {3, 2, 1}},
		},
		{
			// Offset 2. SPT 1,2,3,4 (d 1,2,3,4) completes at 3,5,8,12.
			// Late: 2 (due 4) and 4 (due 10). Window at 4: move 3 after it
			// → 1,2,4,3 at 3,5,9,12: 4 on time, 2 still late (it is left
			// of the window) → a new window at 2: move 1 after 2 →
			// 2,1,4,3 at 4,5,9,12: none late.
			name:   "a new window at a late job left of the old one",
			offset: 2,
			items:  []Item{{ID: 1, Dur: 1, Due: NoDue}, {ID: 2, Dur: 2, Due: 4}, {ID: 3, Dur: 3, Due: NoDue}, {ID: 4, Dur: 4, Due: 10}},
			trace:  [][]int64{{1, 2, 3, 4}, {1, 2, 4, 3}, {2, 1, 4, 3}},
		},
		{
			// A job already late (due −1) at the front: the window is at
			// the front from the start, nothing moves.
			name:  "late at the front",
			items: []Item{{ID: 1, Dur: 1, Due: -1}, {ID: 2, Dur: 5, Due: NoDue}},
			trace: [][]int64{{1, 2}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [][]int64
			final := swap(c.items, c.offset, func(o []Item) { got = append(got, ids(o)) })
			if !slices.EqualFunc(got, c.trace, slices.Equal) {
				t.Fatalf("trace %v, want %v", got, c.trace)
			}
			if !slices.Equal(ids(final), c.trace[len(c.trace)-1]) {
				t.Fatalf("final %v", ids(final))
			}
			if !slices.Equal(ids(SwapHeuristic(c.items, c.offset)), ids(final)) {
				t.Fatal("SwapHeuristic differs from the traced run")
			}
		})
	}
}

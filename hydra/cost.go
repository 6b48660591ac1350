package hydra

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// NoDue is the Due of a job without a deadline.
const NoDue = int64(math.MaxInt64)

// DefaultPenalty is Hydra's default tardiness penalty f (1e9).
const DefaultPenalty = int64(1_000_000_000)

// Item is one job as seen by one GPU: its duration on that GPU's type and
// its deadline measured from the operation time (Due = deadline − now, which
// may be ≤ 0 for a job already late; NoDue when it has none).
type Item struct {
	ID  int64
	Dur int64 // ≥ 1
	Due int64
}

// HasDue reports whether the item has a deadline.
func (it Item) HasDue() bool { return it.Due != NoDue }

// Cost is the exact value of Σ (C_n + f·tardiness_n) split into its two
// sums; its value is f·Tardiness + Completion. A Cost may also hold a
// difference of two costs (fields of either sign), as the increment
// comparison does.
type Cost struct {
	Tardiness  int64 // Σ tardiness_n (s)
	Completion int64 // Σ C_n (s)
}

// Add is the field-wise sum.
func (c Cost) Add(d Cost) Cost {
	return Cost{c.Tardiness + d.Tardiness, c.Completion + d.Completion}
}

// Sub is the field-wise difference (the increment c − d).
func (c Cost) Sub(d Cost) Cost {
	return Cost{c.Tardiness - d.Tardiness, c.Completion - d.Completion}
}

// Value is f·Tardiness + Completion as a float64 (for display only:
// comparisons use Compare, which is exact).
func (c Cost) Value(f int64) float64 {
	return float64(f)*float64(c.Tardiness) + float64(c.Completion)
}

// Compare compares f·c.T + c.C with f·d.T + d.C exactly (f ≥ 1), returning
// −1, 0 or +1. The fields' differences must fit an int64.
func (c Cost) Compare(d Cost, f int64) int {
	// f·c.T + c.C ? f·d.T + d.C  ⇔  f·x ? y with x = c.T − d.T, y = d.C − c.C.
	x, y := c.Tardiness-d.Tardiness, d.Completion-c.Completion
	switch {
	case x == 0:
		return -cmp.Compare(y, 0)
	case x > 0:
		if y <= 0 {
			return 1
		}
		hi, lo := bits.Mul64(uint64(f), uint64(x))
		if hi > 0 || lo > uint64(y) {
			return 1
		}
		if lo == uint64(y) {
			return 0
		}
		return -1
	default: // x < 0: f·x = −f·|x| ≤ −1
		if y >= 0 {
			return -1
		}
		hi, lo := bits.Mul64(uint64(f), uint64(-x))
		if hi > 0 || lo > uint64(-y) {
			return -1
		}
		if lo == uint64(-y) {
			return 0
		}
		return 1
	}
}

// Less is Compare(d, f) < 0.
func (c Cost) Less(d Cost, f int64) bool { return c.Compare(d, f) < 0 }

// infCost is larger than any real cost.
var infCost = Cost{Tardiness: math.MaxInt64 / 4, Completion: math.MaxInt64 / 4}

// tardiness of a job completing at c (from the operation time) with due.
func tardiness(c, due int64) int64 {
	if due == NoDue || c <= due {
		return 0
	}
	return c - due
}

// SequenceCost is the cost of running items in the given order on a GPU
// whose first free instant is offset seconds after the operation time.
func SequenceCost(items []Item, offset int64) Cost {
	var c Cost
	t := offset
	for _, it := range items {
		t += it.Dur
		c.Completion += t
		c.Tardiness += tardiness(t, it.Due)
	}
	return c
}

// Late reports how many items miss their deadline in the given order.
func Late(items []Item, offset int64) int {
	n := 0
	t := offset
	for _, it := range items {
		t += it.Dur
		if tardiness(t, it.Due) > 0 {
			n++
		}
	}
	return n
}

// sptLess is shortest-processing-time order: duration, then job id.
func sptLess(a, b Item) int { return cmp.Or(cmp.Compare(a.Dur, b.Dur), cmp.Compare(a.ID, b.ID)) }

// SPT returns the items in shortest-processing-time order (ascending
// duration, ties by job id), which minimises Σ C_n on one machine.
func SPT(items []Item) []Item {
	out := slices.Clone(items)
	slices.SortFunc(out, sptLess)
	return out
}

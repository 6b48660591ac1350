package hydra

import (
	"errors"
	"math"
)

// Forbidden marks a (row, column) pair that may not be assigned.
const Forbidden = int64(math.MaxInt64)

// hugeCost bounds the costs the assignment solver accepts, so that sums of
// potentials never overflow.
const hugeCost = int64(1) << 52

// ErrNoAssignment is returned when some row has no assignable column left.
var ErrNoAssignment = errors.New("no complete assignment exists")

// hungarian is the Hungarian method in its shortest-augmenting-path form
// (Kuhn–Munkres with the potentials of Jonker and Volgenant, O(n²·m) for n
// rows and m ≥ n columns). Rows are added one at a time; each phase grows a
// Dijkstra tree over reduced costs c(i,j) − u_i − v_j ≥ 0 from the new row
// until it reaches a free column and augments along the path.
//
// The dual is kept feasible throughout (u_i + v_j ≤ c(i,j), v_j ≤ 0, and
// v_j = 0 for every free column), and every matched pair is tight, so the
// final matching is a minimum-cost assignment of all rows.
//
// Columns may be appended between phases (addColumn). A new column with
// v = 0 keeps the dual feasible when its cost is, for every row, at least
// the cost of some column that is free with v = 0 — AlloX's slots use this
// (see AlloX).
type hungarian struct {
	rows int
	cost func(i, j int) int64 // 0-based; Forbidden when not allowed
	u, v []int64              // potentials; index 0 is the virtual column/row
	p    []int                // p[j] = row (1-based) matched to column j, 0 = free
	way  []int
	minv []int64
	used []bool
}

func newHungarian(rows, cols int, cost func(i, j int) int64) *hungarian {
	h := &hungarian{rows: rows, cost: cost, u: make([]int64, rows+1)}
	h.v, h.p, h.way, h.minv, h.used = make([]int64, 1), make([]int, 1), make([]int, 1), make([]int64, 1), make([]bool, 1)
	for range cols {
		h.addColumn()
	}
	return h
}

func (h *hungarian) addColumn() {
	h.v = append(h.v, 0)
	h.p = append(h.p, 0)
	h.way = append(h.way, 0)
	h.minv = append(h.minv, 0)
	h.used = append(h.used, false)
}

// augment adds row i (0-based) to the matching and returns the column
// (0-based) that was free and is now matched.
func (h *hungarian) augment(i int) (int, error) {
	const inf = int64(math.MaxInt64)
	m := len(h.p) - 1
	h.p[0] = i + 1
	j0 := 0
	for j := range h.minv {
		h.minv[j] = inf
		h.used[j] = false
	}
	for {
		h.used[j0] = true
		i0 := h.p[j0]
		delta, j1 := inf, -1
		for j := 1; j <= m; j++ {
			if h.used[j] {
				continue
			}
			if c := h.cost(i0-1, j-1); c != Forbidden {
				if c < 0 || c > hugeCost {
					return 0, errors.New("assignment cost out of range")
				}
				if cur := c - h.u[i0] - h.v[j]; cur < h.minv[j] {
					h.minv[j], h.way[j] = cur, j0
				}
			}
			if h.minv[j] < delta {
				delta, j1 = h.minv[j], j
			}
		}
		if j1 < 0 {
			return 0, ErrNoAssignment
		}
		for j := 0; j <= m; j++ {
			switch {
			case h.used[j]:
				h.u[h.p[j]] += delta
				h.v[j] -= delta
			case h.minv[j] != inf:
				h.minv[j] -= delta
			}
		}
		j0 = j1
		if h.p[j0] == 0 {
			break
		}
	}
	sink := j0
	for j0 != 0 {
		j1 := h.way[j0]
		h.p[j0] = h.p[j1]
		j0 = j1
	}
	return sink - 1, nil
}

// rowCols returns the column matched to each row (0-based).
func (h *hungarian) rowCols() []int {
	out := make([]int, h.rows)
	for j := 1; j < len(h.p); j++ {
		if h.p[j] > 0 {
			out[h.p[j]-1] = j - 1
		}
	}
	return out
}

// Assign solves the rectangular assignment problem: it matches every row of
// cost (n rows, each of m ≥ n columns) to a distinct column, minimising the
// sum of the chosen entries. Entries must be in 0..2^52 or Forbidden. It
// returns the column of each row and the total.
func Assign(cost [][]int64) ([]int, int64, error) {
	n := len(cost)
	if n == 0 {
		return nil, 0, nil
	}
	m := len(cost[0])
	for _, r := range cost {
		if len(r) != m {
			return nil, 0, errors.New("assignment: ragged cost matrix")
		}
	}
	if m < n {
		return nil, 0, ErrNoAssignment
	}
	h := newHungarian(n, m, func(i, j int) int64 { return cost[i][j] })
	for i := range n {
		if _, err := h.augment(i); err != nil {
			return nil, 0, err
		}
	}
	cols := h.rowCols()
	var total int64
	for i, j := range cols {
		total += cost[i][j]
	}
	return cols, total, nil
}

// errPositionGap would mean an AlloX matching left a position unused below
// a used one, which the slot costs rule out.
var errPositionGap = errors.New("allox: a queue position was left empty (a bug)")

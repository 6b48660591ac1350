package reports

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/frontplot"
	"github.com/evogp/evogp/internal/pareto"
)

// FrontSet is a front of formulas evaluated as schedulers (SPEC §17): the
// LABEL=RUN entry of an eval whose run learned a front, expanded into one
// scheduler per member, labelled LABEL-1, LABEL-2, … in front order.
type FrontSet struct {
	Label      string           `json:"label"`
	Run        string           `json:"run"`
	Objectives []string         `json:"objectives"`
	Members    []FrontSetMember `json:"members"`
}

// FrontSetMember is one member: its scheduler label, formula, size (nodes
// of the simplified tree) and the validation ω interval it won (nil: none
// or more than two objectives).
type FrontSetMember struct {
	Label   string   `json:"label"`
	Formula string   `json:"formula"`
	Size    int      `json:"size"`
	OmegaLo *float64 `json:"omega_lo,omitempty"`
	OmegaHi *float64 `json:"omega_hi,omitempty"`
}

// FrontMetric is a scheduler's value of a front objective on one result
// row, as the learner scores it (util is minimised as 1 − util); ok is
// false for size, which a result row does not have.
func FrontMetric(name string, r ResultRow) (float64, bool) {
	switch name {
	case "cq_avg":
		return r.CQAvg, true
	case "cq_max":
		return r.CQMax, true
	case "util":
		return 1 - r.Util, true
	case "avg_jct":
		return r.AvgJCT, true
	case "max_qt":
		return r.MaxQT, true
	case "tardiness":
		return r.TotalTardiness, true
	}
	return 0, false
}

func frontAxis(name string) string {
	switch name {
	case "size":
		return "size (nodes of the simplified tree)"
	case "util":
		return "1 − util (mean over instances)"
	case "cq_avg", "cq_max":
		return name + " (mean over instances)"
	}
	return name + " (h, mean over instances)"
}

// FrontTestPlot draws the test-set trade-off of a front (the paper's Fig.
// 7/8 in one figure): every member of set and every other scheduler of
// results (except members of the fronts in exclude) as a labelled point
// at its mean over the instances of the front's first two objectives,
// with the members no other member dominates joined by a line. Where an
// axis is size, only the members are drawn. Every member must have
// results.
func FrontTestPlot(results []ResultRow, set FrontSet, exclude []FrontSet) (*Figure, error) {
	if len(set.Objectives) < 2 || len(set.Members) == 0 {
		return nil, errors.New("front plot: a front needs two objectives and a member")
	}
	sum := map[string][2]float64{}
	count := map[string]int{}
	var order []string
	for _, r := range results {
		if _, ok := count[r.Scheduler]; !ok {
			order = append(order, r.Scheduler)
		}
		v := sum[r.Scheduler]
		for k := range 2 {
			if x, ok := FrontMetric(set.Objectives[k], r); ok {
				v[k] += x
			}
		}
		sum[r.Scheduler] = v
		count[r.Scheduler]++
	}
	mean := func(s string, k int) float64 { return sum[s][k] / float64(count[s]) }
	in := frontplot.Input{
		Name:   "tradeoff_" + figure.FileStem(set.Label),
		Title:  frontTitle(set),
		XLabel: frontAxis(set.Objectives[0]), YLabel: frontAxis(set.Objectives[1]),
		LineLabel: "front (test)",
	}
	if len(set.Objectives) == 2 {
		in.OmegaVariable = "ω·" + set.Objectives[0] + " + (1 − ω)·" + set.Objectives[1] + " on validation"
		in.Grid = pareto.OmegaGrid() // the ω table's grid: its picks are circled
	} else {
		in.Title += fmt.Sprintf("; %s not shown", set.Objectives[2])
	}
	member := map[string]bool{}
	for _, f := range append([]FrontSet{set}, exclude...) {
		for _, m := range f.Members {
			member[m.Label] = true
		}
	}
	for _, m := range set.Members {
		if count[m.Label] == 0 {
			return nil, fmt.Errorf("front plot: member %s has no results", m.Label)
		}
		p := frontplot.Point{Label: m.Label, OmegaLo: math.NaN(), OmegaHi: math.NaN()}
		xy := [2]float64{}
		for k := range 2 {
			if set.Objectives[k] == "size" {
				xy[k] = float64(m.Size)
			} else {
				xy[k] = mean(m.Label, k)
			}
		}
		p.X, p.Y = xy[0], xy[1]
		if m.OmegaLo != nil && m.OmegaHi != nil {
			p.OmegaLo, p.OmegaHi = *m.OmegaLo, *m.OmegaHi
		}
		in.Members = append(in.Members, p)
	}
	if !slices.Contains(set.Objectives[:2], "size") {
		for _, s := range order {
			if !member[s] {
				in.Baselines = append(in.Baselines, frontplot.Point{Label: s, X: mean(s, 0), Y: mean(s, 1)})
			}
		}
	}
	return frontplot.Plot(in)
}

// frontTitle is "test-set trade-off of front F (3 members)", without
// repeating "front" for a front labelled front.
func frontTitle(set FrontSet) string {
	t := "test-set trade-off of front " + set.Label
	if set.Label == "front" {
		t = "test-set trade-off of the front"
	}
	return t + " (" + frontplot.Members(len(set.Members)) + ")"
}

package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/evogp/evogp/reports"
)

// Eq5Vectors are issue 42's Eq. 5 weight vectors (ω1, ω2, ω3) over
// (cq_avg, cq_max, 1 − util).
var Eq5Vectors = [][3]float64{{1, 1, 1}, {1, 0.1, 1}, {1, 0.01, 1}, {0.1, 1, 1}}

// eq5Row is one weight vector's outcome: the best baseline and the best
// member by the mean over instances of ω1·cq_avg + ω2·cq_max +
// ω3·(1 − util) (raw, not normalised, as Eq. 5), and whether that member
// beats every baseline's mean (strictly).
type eq5Row struct {
	W                  [3]float64
	Baseline, Member   string
	BaselineV, MemberV float64
	Beats              bool
}

// eq5Means is each scheduler's mean of the three Eq. 5 terms over its
// rows (the first row of an instance counts).
func eq5Means(rows []reports.ResultRow) map[string][3]float64 {
	sum := map[string][3]float64{}
	n := map[string]int{}
	seen := map[string]bool{}
	for _, r := range rows {
		k := r.Scheduler + "\x00" + r.Instance
		if seen[k] {
			continue
		}
		seen[k] = true
		v := sum[r.Scheduler]
		v[0], v[1], v[2] = v[0]+r.CQAvg, v[1]+r.CQMax, v[2]+1-r.Util
		sum[r.Scheduler] = v
		n[r.Scheduler]++
	}
	out := map[string][3]float64{}
	for s, v := range sum {
		out[s] = [3]float64{v[0] / float64(n[s]), v[1] / float64(n[s]), v[2] / float64(n[s])}
	}
	return out
}

// eq5Table scores every vector of ws: the best of baselines and the best
// of members (lowest weighted mean; ties: the first named). Every name
// must have rows. own holds, for some vectors, the rows of an eval run
// under that vector's weights (`evogp eval --weights`), where a scheduler
// that optimises the objective it is given (EVO) is another scheduler:
// each baseline with rows there is one more baseline of that vector,
// named "B@ω1,ω2,ω3".
func eq5Table(rows []reports.ResultRow, ws [][3]float64, members, baselines []string, own map[[3]float64][]reports.ResultRow) ([]eq5Row, error) {
	means := eq5Means(rows)
	best := func(means map[string][3]float64, names []string, w [3]float64, suffix string, need bool) (string, float64, error) {
		b, bv := "", math.Inf(1)
		for _, s := range names {
			m, ok := means[s]
			if !ok {
				if !need {
					continue
				}
				return "", 0, fmt.Errorf("no results of %s", s)
			}
			if v := w[0]*m[0] + w[1]*m[1] + w[2]*m[2]; v < bv {
				b, bv = s+suffix, v
			}
		}
		return b, bv, nil
	}
	var out []eq5Row
	for _, w := range ws {
		b, bv, err := best(means, baselines, w, "", true)
		if err != nil {
			return nil, err
		}
		if rs, ok := own[w]; ok {
			if ob, obv, _ := best(eq5Means(rs), baselines, w, fmt.Sprintf("@%g,%g,%g", w[0], w[1], w[2]), false); obv < bv {
				b, bv = ob, obv
			}
		}
		m, mv, err := best(means, members, w, "", true)
		if err != nil {
			return nil, err
		}
		out = append(out, eq5Row{W: w, Baseline: b, BaselineV: bv, Member: m, MemberV: mv, Beats: mv < bv})
	}
	return out, nil
}

func writeEq5(w io.Writer, rows []eq5Row, n int, baselines []string) {
	fmt.Fprintf(w, "Eq. 5 (ω1·cq_avg + ω2·cq_max + ω3·(1 − util), means over %d test instances; best member on test against the best of %s):\n\n", n, strings.Join(baselines, ", "))
	fmt.Fprintf(w, "| (ω1, ω2, ω3) | best member | its Eq. 5 | best baseline | its Eq. 5 | member beats every baseline |\n|---|---|---:|---|---:|---|\n")
	for _, r := range rows {
		yes := "no"
		if r.Beats {
			yes = "**yes**"
		}
		fmt.Fprintf(w, "| (%g, %g, %g) | %s | %.4f | %s | %.4f | %s |\n", r.W[0], r.W[1], r.W[2], r.Member, r.MemberV, r.Baseline, r.BaselineV, yes)
	}
	fmt.Fprintln(w)
}

// ownEvals is the -eq5-own flag: weight vector → the rows of an eval run
// under it.
type ownEvals map[[3]float64][]reports.ResultRow

func (o ownEvals) String() string { return fmt.Sprintf("%d evals", len(o)) }

// Set reads "ω1,ω2,ω3=PATH".
func (o ownEvals) Set(v string) error {
	ws, path, ok := strings.Cut(v, "=")
	parts := strings.Split(ws, ",")
	if !ok || len(parts) != 3 {
		return fmt.Errorf("-eq5-own %q: want ω1,ω2,ω3=results.parquet", v)
	}
	var w [3]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return fmt.Errorf("-eq5-own %q: weight %q: %w", v, p, err)
		}
		w[i] = x
	}
	rows, err := reports.ReadResults(path)
	if err != nil {
		return err
	}
	o[w] = rows
	return nil
}

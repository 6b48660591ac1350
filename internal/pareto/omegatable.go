package pareto

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// OmegaGrid is the ω grid of the ω table: 0, 0.25, 0.5, 0.75, 1.
func OmegaGrid() []float64 { return []float64{0, 0.25, 0.5, 0.75, 1} }

// OmegaWeights are the weights of ω over n objectives: (ω, 1 − ω) on the
// first two (Eq. 16's ω) and 0 on any other, so a third objective (util
// in Eq. 5) is left out of the pick.
func OmegaWeights(n int, omega float64) []float64 {
	w := make([]float64, n)
	w[0] = omega
	if n > 1 {
		w[1] = 1 - omega
	}
	return w
}

// OmegaInput is what the ω table compares. Every vector is of the same
// objectives, normalised (÷ SRSF's per instance, SPEC §17).
type OmegaInput struct {
	// Members and their objectives on the selection data (validation):
	// ω's member is picked on these (PickWeights).
	Members         []string
	MemberSelection [][]float64
	Baselines       []string
	// BaselineSelection are the baselines' objectives on the same
	// selection data: ω's best baseline is picked on these, never on test.
	BaselineSelection [][]float64
	// MemberTest[m][i] and BaselineTest[b][i] are the objective vectors of
	// member m and baseline b on test instance i.
	MemberTest   [][][]float64
	BaselineTest [][][]float64
}

// OmegaRow is one ω of the table: the member picked on the selection
// data, the baseline with the lowest weighted sum there, both scored on
// test (the mean over test instances of the per-instance weighted sum),
// Ratio = Member ÷ Baseline test mean (< 1: the member is better), and
// over the test instances how often the member's weighted sum is lower
// (Better), equal within TieTolerance (Tied) or higher (Worse).
type OmegaRow struct {
	Omega        float64 `json:"omega"`
	Member       string  `json:"member"`
	MemberTest   float64 `json:"member_test"`
	Baseline     string  `json:"baseline"`
	BaselineTest float64 `json:"baseline_test"`
	Ratio        float64 `json:"ratio"`
	Better       int     `json:"better"`
	Tied         int     `json:"tied"`
	Worse        int     `json:"worse"`
}

// TieTolerance is the relative difference below which two per-instance
// weighted sums tie: |a − b| ≤ TieTolerance · max(|a|, |b|).
const TieTolerance = 1e-9

func weighted(w, v []float64) float64 {
	s := 0.0
	for k := range w {
		if w[k] != 0 {
			s += w[k] * v[k]
		}
	}
	return s
}

// OmegaTable computes one row per ω of grid.
func OmegaTable(in OmegaInput, grid []float64) ([]OmegaRow, error) {
	if len(in.Members) == 0 || len(in.Members) != len(in.MemberSelection) || len(in.Members) != len(in.MemberTest) {
		return nil, errors.New("ω table: members, their selection and their test vectors do not match")
	}
	if len(in.Baselines) == 0 || len(in.Baselines) != len(in.BaselineSelection) || len(in.Baselines) != len(in.BaselineTest) {
		return nil, errors.New("ω table: baselines, their selection and their test vectors do not match")
	}
	n := len(in.MemberTest[0])
	if n == 0 {
		return nil, errors.New("ω table: no test instance")
	}
	for _, t := range append(append([][][]float64{}, in.MemberTest...), in.BaselineTest...) {
		if len(t) != n {
			return nil, errors.New("ω table: test vectors of different instance counts")
		}
	}
	dims := len(in.MemberSelection[0])
	var rows []OmegaRow
	for _, omega := range grid {
		if !(omega >= 0 && omega <= 1) {
			return nil, fmt.Errorf("ω table: ω = %v is not in [0, 1]", omega)
		}
		w := OmegaWeights(dims, omega)
		m := PickWeights(in.MemberSelection, w)
		b := PickWeights(in.BaselineSelection, w)
		row := OmegaRow{Omega: omega, Member: in.Members[m], Baseline: in.Baselines[b]}
		for i := range n {
			mv, bv := weighted(w, in.MemberTest[m][i]), weighted(w, in.BaselineTest[b][i])
			row.MemberTest += mv
			row.BaselineTest += bv
			switch {
			case math.Abs(mv-bv) <= TieTolerance*max(math.Abs(mv), math.Abs(bv)):
				row.Tied++
			case mv < bv:
				row.Better++
			default:
				row.Worse++
			}
		}
		row.MemberTest /= float64(n)
		row.BaselineTest /= float64(n)
		row.Ratio = row.MemberTest / row.BaselineTest
		rows = append(rows, row)
	}
	return rows, nil
}

// WriteOmegaTable prints rows under a header naming the objectives, the
// test data (test) and the data the member and the baseline were picked
// on (selection).
func WriteOmegaTable(w io.Writer, rows []OmegaRow, objectives []string, test, selection string) error {
	sum := "ω·" + objectives[0]
	if len(objectives) > 1 {
		sum += " + (1 − ω)·" + objectives[1]
	}
	if len(objectives) > 2 {
		sum += " (" + strings.Join(objectives[2:], ", ") + " weighted 0)"
	}
	fmt.Fprintf(w, "ω table on %s: %s ÷ SRSF's, test mean; member and best baseline picked per ω on %s\n", test, sum, selection)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ω\tmember\tmember test\tbest baseline\tbaseline test\tratio\tbetter/tied/worse")
	for _, r := range rows {
		fmt.Fprintf(tw, "%.2f\t%s\t%.4f\t%s\t%.4f\t%.4f\t%d/%d/%d\n", r.Omega, r.Member, r.MemberTest, r.Baseline, r.BaselineTest, r.Ratio, r.Better, r.Tied, r.Worse)
	}
	return tw.Flush()
}

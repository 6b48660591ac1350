package runfile

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/evogp/evogp/internal/stats"
)

// Row names of the test table besides the named baselines.
const (
	RowLearned  = "learned"
	RowConstant = "constant"
	RowSRSF     = "srsf"
)

// TestRow is one scheduler of the test table.
type TestRow struct {
	Scheduler string `json:"scheduler"`
	Spec      string `json:"spec"` // the scheduler spec or formula
	Baseline  bool   `json:"baseline"`
	// Objective is the mean over the instances of the config's objective;
	// Normalised the mean of O_x,i / O_SRSF,i (SRSF = 1, lower is better).
	Objective  float64 `json:"objective"`
	Normalised float64 `json:"normalised"`
	// Wins counts the instances on which the row has the lowest objective
	// of all rows, a tie of k rows giving each 1/k; MeanRank is the mean
	// of the row's mid-rank (1 = best) among all rows.
	Wins     float64 `json:"wins"`
	MeanRank float64 `json:"mean_rank"`
	// Better, Ties and Worse compare the row's objective with the best
	// baseline's, instance by instance; WilcoxonP is the two-sided paired
	// Wilcoxon signed-rank p-value of that comparison (null for the best
	// baseline itself).
	Better    int      `json:"better"`
	Ties      int      `json:"ties"`
	Worse     int      `json:"worse"`
	WilcoxonP *float64 `json:"wilcoxon_p"`
	// Objectives are the per-instance objectives, in instance order.
	Objectives []float64 `json:"objectives"`
}

// TestTable is the honest report of a learned formula: its results on a
// held-out test split against every named baseline (simcore's table), a
// constant priority and SRSF, all under the config's simulator options.
type TestTable struct {
	Split        string `json:"split"`
	Instances    int    `json:"instances"`
	BestBaseline string `json:"best_baseline"` // the baseline every row is compared with
	// BestBaselineBasis says on which data BestBaseline was chosen:
	// BasisValidation (the run's best_baseline, AgainstBaseline) or
	// BasisTestSplit.
	BestBaselineBasis string    `json:"best_baseline_basis"`
	Rows              []TestRow `json:"rows"`
}

// The data a TestTable's best baseline was chosen on.
const (
	BasisValidation = "on the validation set (the run's best_baseline), not on this test split"
	BasisTestSplit  = "by mean normalised objective on this test split"
)

// AgainstBaseline makes the baseline row name the table's best baseline,
// chosen on other data (basis says which), and recomputes every other
// row's comparison with it (better / tied / worse, Wilcoxon p).
func (t *TestTable) AgainstBaseline(name, basis string) error {
	bb := slices.IndexFunc(t.Rows, func(r TestRow) bool { return r.Scheduler == name && r.Baseline })
	if bb < 0 {
		return fmt.Errorf("learn: test split: best baseline %q (chosen %s) is not a baseline of the table", name, basis)
	}
	for c := range t.Rows {
		t.Rows[c].Better, t.Rows[c].Ties, t.Rows[c].Worse, t.Rows[c].WilcoxonP = 0, 0, 0, nil
	}
	t.BestBaseline, t.BestBaselineBasis = name, basis
	return t.CompareWith(bb)
}

// Row returns the row named name, or nil.
func (t *TestTable) Row(name string) *TestRow {
	for i := range t.Rows {
		if t.Rows[i].Scheduler == name {
			return &t.Rows[i]
		}
	}
	return nil
}

// CompareWith compares every row but bb with row bb, instance by
// instance: better / tied / worse and the Wilcoxon signed-rank p (the
// rows' comparison fields must be zero).
func (t *TestTable) CompareWith(bb int) error {
	obj := func(c int) []float64 { return t.Rows[c].Objectives }
	for c := range t.Rows {
		if c == bb {
			continue
		}
		r := &t.Rows[c]
		for i := range obj(c) {
			switch x, y := obj(c)[i], obj(bb)[i]; {
			case x < y:
				r.Better++
			case x > y:
				r.Worse++
			default:
				r.Ties++
			}
		}
		w, err := stats.WilcoxonSignedRank(obj(c), obj(bb))
		if err != nil {
			return fmt.Errorf("learn: test split: %s vs %s: %w", r.Scheduler, t.BestBaseline, err)
		}
		p := w.P
		r.WilcoxonP = &p
	}
	return nil
}

// Basis is BestBaselineBasis, BasisTestSplit for a table written before
// the field existed.
func (t *TestTable) Basis() string {
	if t.BestBaselineBasis == "" {
		return BasisTestSplit
	}
	return t.BestBaselineBasis
}

// WriteText prints the table: one line per scheduler with its mean
// objective, mean normalised objective, wins, mean rank, and the
// comparison with the best baseline.
func (t *TestTable) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "test split: %s; best baseline: %s, chosen %s\n", t.Split, t.BestBaseline, t.Basis())
	fmt.Fprintf(&b, "%-10s %12s %11s %6s %9s  %-22s %s\n", "scheduler", "objective", "normalised", "wins", "mean rank", "vs "+t.BestBaseline+" (b/t/w)", "Wilcoxon p")
	for _, r := range t.Rows {
		vs, p := "(best baseline)", "—"
		if r.WilcoxonP != nil {
			vs = fmt.Sprintf("%d / %d / %d", r.Better, r.Ties, r.Worse)
			p = fmt.Sprintf("%.3g", *r.WilcoxonP)
			if r.Better+r.Worse < stats.MinTestPairs { // no outcome could reach p < 0.05
				p = "n too small for a test"
			}
		}
		fmt.Fprintf(&b, "%-10s %12.4f %11.4f %6.1f %9.2f  %-22s %s\n", r.Scheduler, r.Objective, r.Normalised, r.Wins, r.MeanRank, vs, p)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

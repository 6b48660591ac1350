package experiment

import (
	"fmt"
	"io"
	"strconv"

	"github.com/evogp/evogp/internal/texttable"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
)

// WriteSummaryTable prints the summary of the output directory dir as an
// aligned table for a terminal: per scheduler the instances, the mean
// objective ± sd, the objective normalised by reference ("" =
// reports.DefaultReference), the wins, the mean rank and the Wilcoxon
// p-value against the best baseline. It reads the tables dir holds, so it
// prints what summary.md says, in fewer columns.
//
// Rows identical on every instance are one line ("tiresias = srsf"), a
// p-value is shown only where the test can reach p < 0.05 ("n too small
// for a test" otherwise), and lines below the table say on which data
// the best baseline was chosen and why rows were folded.
func WriteSummaryTable(w io.Writer, dir, reference string) error {
	t, err := ReadTables(dir)
	if err != nil {
		return err
	}
	best, basis, err := manifestBestBaseline(dir)
	if err != nil {
		return err
	}
	s, err := reports.Summarize(t.Results, reports.SummaryOptions{Reference: reference, Baselines: policies.Baselines(), BestBaseline: best, BestBaselineBasis: basis})
	if err != nil {
		return err
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	rows := [][]string{{"scheduler", "n", "objective", "normalised", "wins", "mean rank", "p vs " + s.BestBaseline}}
	for _, st := range s.Schedulers {
		if st.SameAs != "" {
			continue
		}
		p := "–"
		if st.Test.Method != "" {
			p = fmt.Sprintf("%s (n=%d)", num(st.Test.P), st.Test.N)
			if !st.Test.CanReject() {
				p = fmt.Sprintf("n too small for a test (n=%d)", st.Test.N)
			}
		}
		norm := "–"
		if st.Normalized.N > 0 {
			norm = num(st.Normalized.Mean)
		}
		rows = append(rows, []string{s.RowName(st.Scheduler), strconv.Itoa(st.Instances),
			num(st.Objective.Mean) + " ± " + num(st.Objective.SD), norm, num(st.Wins), num(st.MeanRank), p})
	}
	if err := texttable.Write(w, rows); err != nil {
		return err
	}
	if s.BestBaseline != "" {
		fmt.Fprintf(w, "best baseline %s, chosen %s\n", s.BestBaseline, s.BestBaselineBasis)
	}
	for _, f := range s.Folds() {
		fmt.Fprintf(w, "one row for two schedulers: %s\n", s.FoldWhy(f))
	}
	return nil
}

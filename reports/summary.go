package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/stats"
)

// WriteSummaryMarkdown writes s as a Markdown report: the headline
// sentence (Headline), then one table row per scheduler with mean ± sd of
// each metric (hours, util a fraction), the normalised objective,
// fractional wins, mean rank, and against the best baseline the better /
// tied / worse counts, the median paired ratio with its 95 % CI and the
// Wilcoxon test. Undefined values print as "–".
func WriteSummaryMarkdown(w io.Writer, s Summary) error {
	var b strings.Builder
	b.WriteString("# Results summary\n\n")
	b.WriteString(Headline(s) + "\n\n")
	fmt.Fprintf(&b, "%d instances; %d ranked (every scheduler ran). Times in hours, util a fraction; cells are mean ± sd over instances.\n", s.Instances, s.Ranked)
	fmt.Fprintf(&b, "Normalised objective: mean over instances of objective ÷ objective of `%s`.\n", s.Reference)
	b.WriteString("wins: ranked instances with the lowest objective, fractional (a k-way tie for first gives each tied scheduler 1/k).\n")
	if s.BestBaseline != "" {
		fmt.Fprintf(&b, "Against the best baseline `%s` (chosen %s): better / tied / worse counts the instances both ran; the median ratio is the median over instances of objective ÷ its objective, with a distribution-free 95 %% CI (order statistics); Wilcoxon is the two-sided paired signed-rank test of the objective (W+ > W− means worse than it), given only with at least %d non-tied pairs, the fewest with which p < %g is possible.\n", s.BestBaseline, s.BestBaselineBasis, stats.MinTestPairs, SignificanceLevel)
	}
	for _, f := range s.Folds() {
		fmt.Fprintf(&b, "One row for two schedulers: %s.\n", s.FoldWhy(f))
	}
	b.WriteString("\n| scheduler | n | objective | normalised | cq_avg (h) | cq_max (h) | util | avg_jct (h) | max_qt (h) | makespan (h) | wins (fractional) | mean rank | better / tied / worse | median ratio (95 % CI) | W+ / W− | p |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range s.Schedulers {
		if r.SameAs != "" {
			continue
		}
		test, p, btw, ratio := "–", "–", "–", "–"
		if r.Test.Method != "" {
			test = fmt.Sprintf("%s / %s (n=%d)", num(r.Test.WPlus), num(r.Test.WMinus), r.Test.N)
			p = fmt.Sprintf("%.3g (%s)", r.Test.P, r.Test.Method)
			if !r.Test.CanReject() {
				p = "n too small for a test"
			}
			btw = fmt.Sprintf("%d / %d / %d", r.Paired.Better, r.Paired.Tied, r.Paired.Worse)
			ratio = RatioWithCI(r.Paired)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			mdEscape(s.RowName(r.Scheduler)), r.Instances, pm(r.Objective), pm(r.Normalized), pm(r.CQAvg), pm(r.CQMax),
			pm(r.Util), pm(r.AvgJCT), pm(r.MaxQT), pm(r.Makespan), num(r.Wins), num(r.MeanRank), btw, ratio, test, p)
	}
	if hasDeadlines(s) {
		b.WriteString("\nDeadlines (jobs with a deadline are late when they finish after it):\n\n")
		b.WriteString("| scheduler | total tardiness (h) | deadline misses | avg_jct (h) | makespan (h) |\n|---|---:|---:|---:|---:|\n")
		for _, r := range s.Schedulers {
			if r.SameAs != "" {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", mdEscape(s.RowName(r.Scheduler)), pm(r.TotalTardiness), pm(r.DeadlineMisses), pm(r.AvgJCT), pm(r.Makespan))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// hasDeadlines reports whether some scheduler was ever late: the
// deadline table is shown only for workloads where deadlines matter.
func hasDeadlines(s Summary) bool {
	for _, r := range s.Schedulers {
		if r.TotalTardiness.Mean > 0 || r.DeadlineMisses.Mean > 0 {
			return true
		}
	}
	return false
}

// pm formats a Stat as "mean ± sd" with 4 significant digits.
func pm(s Stat) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.4g ± %.2g", s.Mean, s.SD)
}

func num(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// summaryColumns returns the CSV header: per metric mean and sd, then the
// rank and test columns. rank_k counts instances ranked k-th.
func summaryColumns(nSched int) []string {
	cols := []string{"scheduler", "instances"}
	for _, m := range []string{"objective", "normalized", "cq_avg", "cq_max", "util", "avg_jct", "max_qt", "makespan", "total_tardiness"} {
		cols = append(cols, m+"_mean", m+"_sd")
	}
	cols = append(cols, "normalized_n", "wins", "mean_rank")
	for k := 1; k <= nSched; k++ {
		cols = append(cols, "rank_"+strconv.Itoa(k))
	}
	return append(cols, "test_against", "test_method", "test_n", "test_zeros", "w_plus", "w_minus", "z", "p",
		"better", "tied", "worse", "median_ratio", "median_ratio_ci_lo", "median_ratio_ci_hi",
		"test_can_reject", "mean_ratio", "mean_ratio_ci_lo", "mean_ratio_ci_hi", "same_as", "best_baseline_basis")
}

// RowName is the name of a scheduler's row in a folded table: "tiresias
// = srsf" when srsf's rows equal tiresias's (Summary.Folds).
func (s Summary) RowName(name string) string {
	row := name
	for _, f := range s.Folds() {
		if f.Kept == name {
			row += " = " + f.Name
		}
	}
	return row
}

// WriteSummaryCSV writes s as CSV, one row per scheduler, columns as
// summaryColumns. Undefined numbers (NaN) are empty cells, which pandas,
// polars and DuckDB read as missing.
func WriteSummaryCSV(w io.Writer, s Summary) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(summaryColumns(len(s.Schedulers))); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	for _, r := range s.Schedulers {
		rec := []string{r.Scheduler, strconv.Itoa(r.Instances)}
		for _, st := range []Stat{r.Objective, r.Normalized, r.CQAvg, r.CQMax, r.Util, r.AvgJCT, r.MaxQT, r.Makespan, r.TotalTardiness} {
			rec = append(rec, f(st.Mean), f(st.SD))
		}
		rec = append(rec, strconv.Itoa(r.Normalized.N), f(r.Wins), f(r.MeanRank))
		for _, c := range r.RankCounts {
			rec = append(rec, strconv.Itoa(c))
		}
		if r.Test.Method == "" {
			rec = append(rec, "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "")
		} else {
			t, pc := r.Test, r.Paired
			rec = append(rec, s.BestBaseline, t.Method, strconv.Itoa(t.N), strconv.Itoa(t.Zeros), f(t.WPlus), f(t.WMinus), f(t.Z), f(t.P),
				strconv.Itoa(pc.Better), strconv.Itoa(pc.Tied), strconv.Itoa(pc.Worse), f(pc.MedianRatio), f(pc.RatioLo), f(pc.RatioHi),
				strconv.FormatBool(t.CanReject()), f(pc.MeanRatio), f(pc.MeanRatioLo), f(pc.MeanRatioHi))
		}
		rec = append(rec, r.SameAs, s.BestBaselineBasis)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSummaryFiles writes summary.md and summary.csv into dir atomically.
func WriteSummaryFiles(dir string, s Summary) error {
	if err := atomicio.WriteFile(filepath.Join(dir, "summary.md"), func(w io.Writer) error { return WriteSummaryMarkdown(w, s) }); err != nil {
		return err
	}
	return atomicio.WriteFile(filepath.Join(dir, "summary.csv"), func(w io.Writer) error { return WriteSummaryCSV(w, s) })
}

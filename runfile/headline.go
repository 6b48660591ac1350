package runfile

import (
	"fmt"
	"math"
	"strings"

	"github.com/evogp/evogp/internal/stats"
)

// Headline is the one-line verdict of a finished run: the validation score
// against the best baseline's (BestBaseline of baselines), and, when a
// test table exists, the test comparison with the best baseline there.
// learn prints it and the report shows it, from the run's result or its
// best.json (Best.Headline).
func Headline(validation float64, baselines []BaselineScore, test *TestTable) string {
	var b strings.Builder
	if len(baselines) > 0 {
		bb, _ := BestBaseline(baselines)
		fmt.Fprintf(&b, "validation score: learned %.4f vs best baseline %s %.4f (mean objective ÷ SRSF's; lower is better): %s",
			validation, bb.Name, bb.Score, relative(validation, bb.Score, bb.Name))
	} else {
		fmt.Fprintf(&b, "validation score: learned %.4f (mean objective ÷ SRSF's)", validation)
	}
	if t := test; t != nil {
		l, bb := t.Row(RowLearned), t.Row(t.BestBaseline)
		fmt.Fprintf(&b, "\ntest score: learned %.4f vs best baseline %s (chosen %s) %.4f: %s; better on %d, tied on %d, worse on %d of %d instances",
			l.Normalised, bb.Scheduler, t.Basis(), bb.Normalised, relative(l.Normalised, bb.Normalised, bb.Scheduler), l.Better, l.Ties, l.Worse, t.Instances)
		switch {
		case l.WilcoxonP != nil && l.Better+l.Worse < stats.MinTestPairs:
			fmt.Fprintf(&b, " (n too small for a test: %d non-tied pairs, %d needed for p < 0.05)", l.Better+l.Worse, stats.MinTestPairs)
		case l.WilcoxonP != nil:
			fmt.Fprintf(&b, " (Wilcoxon p = %.3g)", *l.WilcoxonP)
		}
	}
	return b.String()
}

// relative says how x compares with the reference y (lower is better).
func relative(x, y float64, name string) string {
	switch {
	case x == y:
		return "equal to " + name
	case y == 0 || math.IsInf(y, 0) || math.IsNaN(y) || math.IsNaN(x):
		return fmt.Sprintf("not comparable with %s", name)
	case math.Abs(x/y-1) < 0.0005:
		return fmt.Sprintf("within 0.05%% of %s", name)
	case x < y:
		return fmt.Sprintf("%.1f%% better than %s", 100*(1-x/y), name)
	}
	return fmt.Sprintf("%.1f%% worse than %s", 100*(x/y-1), name)
}

// Headline is b's one-line verdict (the package function Headline).
func (b *Best) Headline() string { return Headline(b.Validation, b.ValidationBaselines, b.Test) }

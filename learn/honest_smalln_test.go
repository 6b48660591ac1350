package learn

import (
	"bytes"
	"strings"
	"testing"
)

// The test table and the headline give a Wilcoxon p-value only with at
// least 6 non-tied pairs; with fewer, no outcome could reach p < 0.05
// (issue 44), so they say "n too small for a test".
func TestTestTableSmallNHasNoPValue(t *testing.T) {
	p3, p6 := 0.25, 0.03125
	table := func(better, worse int, p *float64) *TestTable {
		return &TestTable{Split: "test", Instances: better + worse, BestBaseline: "liquid", Rows: []TestRow{
			{Scheduler: RowLearned, Better: better, Worse: worse, WilcoxonP: p},
			{Scheduler: "liquid", Baseline: true},
		}}
	}
	var b bytes.Buffer
	if err := table(3, 0, &p3).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "n too small for a test") || strings.Contains(b.String(), "0.25") {
		t.Errorf("3 pairs:\n%s", b.String())
	}
	h := Headline(&Result{Test: table(3, 0, &p3)})
	if !strings.Contains(h, "n too small for a test: 3 non-tied pairs, 6 needed for p < 0.05") || strings.Contains(h, "p = 0.25") {
		t.Errorf("headline: %s", h)
	}
	b.Reset()
	if err := table(6, 0, &p6).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "0.0312") || strings.Contains(b.String(), "too small") {
		t.Errorf("6 pairs:\n%s", b.String())
	}
	if h := Headline(&Result{Test: table(6, 0, &p6)}); !strings.Contains(h, "(Wilcoxon p = 0.0312)") {
		t.Errorf("headline: %s", h)
	}
}

package reports

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"
)

// statsTable by hand: tiresias is the best baseline (mean rank 6.5/3
// against spark's 7/3). gp and tiresias both ran a, b, c: gp is better on
// a (1 < 2) and c (3 < 6), tied on b; ratios 0.5, 1, 0.5 (median 0.5, too
// few for a 95 % CI); mean objective 6/10 = 0.6× over those three; the
// exact Wilcoxon test on n = 2 non-zero differences gives p = 0.5, which
// no data could push below 0.05 (the minimum is 2/2² = 0.5), so the
// headline says "n too small for a test" rather than a p-value.
func TestHeadlineHandComputed(t *testing.T) {
	s, err := Summarize(statsTable(), SummaryOptions{Baselines: testBaselines})
	if err != nil {
		t.Fatal(err)
	}
	gp := s.Schedulers[0]
	want := Paired{Better: 2, Tied: 1, Worse: 0, MedianRatio: 0.5, RatioN: 3, MeanRatio: 0.6}
	got := gp.Paired
	if got.Better != want.Better || got.Tied != want.Tied || got.Worse != want.Worse || got.MedianRatio != want.MedianRatio ||
		got.RatioN != want.RatioN || math.Abs(got.MeanRatio-want.MeanRatio) > 1e-12 || !math.IsNaN(got.RatioLo) {
		t.Fatalf("paired = %+v, want %+v", got, want)
	}
	h := Headline(s)
	for _, w := range []string{"Best baseline: tiresias", "gp: mean objective 0.6× tiresias's on the 3 instances both ran",
		"median paired ratio 0.5 (too few instances for a 95 % CI)", "better on 2, tied on 1, worse on 0",
		"n too small for a test (2 non-tied pairs; a two-sided signed-rank test needs 6 to reach p < 0.05)",
		"Best baseline: tiresias (lowest mean normalised objective, objective ÷ tiresias's, over these 4 instances; no other data was given to choose it on)"} {
		if !strings.Contains(h, w) {
			t.Errorf("headline lacks %q:\n%s", w, h)
		}
	}
	if strings.Contains(h, "p = 0.5") || strings.Contains(h, "paired 95 % CI") {
		t.Errorf("headline gives a p-value or a bootstrap interval for 3 pairs: %s", h)
	}
	if strings.Contains(h, "spark:") {
		t.Errorf("headline compares a baseline: %s", h)
	}
	var md bytes.Buffer
	if err := WriteSummaryMarkdown(&md, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "\n"+h+"\n") || !strings.Contains(md.String(), "wins (fractional)") ||
		!strings.Contains(md.String(), "| 2 / 1 / 0 | 0.5 (too few instances for a 95 % CI) | 0 / 3 (n=2) | n too small for a test |") {
		t.Fatalf("summary.md lacks the headline, the fractional-wins header or the paired cells:\n%s", md.String())
	}
}

// Eight instances where gp scores 0.15–0.5 of the baseline (distinct ratios, so the test is exact):
// exact p = 2/2⁸ = 0.0078 (significant); with n = 8 the 95 % CI of the
// median is [x₍₁₎, x₍₈₎] (coverage 1 − 2/256; k = 2 would cover 0.93).
func TestHeadlineSignificantWithCI(t *testing.T) {
	var rows []ResultRow
	ratios := []float64{0.5, 0.25, 0.4, 0.3, 0.45, 0.35, 0.2, 0.15}
	for i, r := range ratios {
		inst := string(rune('a' + i))
		rows = append(rows, ResultRow{Instance: inst, Scheduler: "gp", Jobs: 1, Objective: 10 * r},
			ResultRow{Instance: inst, Scheduler: "tiresias", Jobs: 1, Objective: 10})
	}
	s, err := Summarize(rows, SummaryOptions{Baselines: testBaselines})
	if err != nil {
		t.Fatal(err)
	}
	h := Headline(s)
	for _, w := range []string{"better on 8, tied on 0, worse on 0", "median paired ratio 0.325 (95 % CI 0.15–0.5)",
		"significantly better (Wilcoxon p = 0.00781, n = 8)", "mean objective 0.325× tiresias's (paired 95 % CI 0.25–0.4"} {
		if !strings.Contains(h, w) {
			t.Errorf("headline lacks %q:\n%s", w, h)
		}
	}
	var buf bytes.Buffer
	if err := WriteSummaryCSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]string{}
	for i, c := range recs[0] {
		col[c] = recs[1][i]
	}
	// The median is (3 + 3.5)/20 as floats: (0.3 + 0.35)/2 = 0.32499999999999996.
	for k, v := range map[string]string{"better": "8", "tied": "0", "worse": "0", "median_ratio": "0.32499999999999996", "median_ratio_ci_lo": "0.15", "median_ratio_ci_hi": "0.5"} {
		if col[k] != v {
			t.Errorf("summary.csv %s = %q, want %q", k, col[k], v)
		}
	}
}

package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strings"
	"testing"
)

// foldTable: srsf's rows equal tiresias's bit for bit (SRSF is tiresias
// under another name, and tiresias is the normaliser), gp's equal
// liquid's, and spark differs. Seven instances, so that tests are
// possible where the data differ.
func foldTable() []ResultRow {
	var rows []ResultRow
	for i := range 7 {
		inst := fmt.Sprintf("i%d", i)
		base := float64(10 + 7*i)
		row := func(s string, obj float64) ResultRow {
			return ResultRow{Instance: inst, Scheduler: s, Jobs: 4, Objective: obj, AvgJCT: obj / 2, MaxQT: obj * 3, Makespan: 20, Util: 0.5}
		}
		rows = append(rows, row("gp", base*0.8), row("srsf", base*1.1), row("liquid", base*0.8), row("tiresias", base*1.1), row("spark", base*2+float64(i)))
	}
	return rows
}

func TestSummaryFoldsIdenticalRows(t *testing.T) {
	s, err := Summarize(foldTable(), SummaryOptions{Baselines: testBaselines})
	if err != nil {
		t.Fatal(err)
	}
	if s.BestBaseline != "liquid" {
		t.Fatalf("best baseline %q", s.BestBaseline)
	}
	want := map[string]string{"gp": "liquid", "srsf": "tiresias", "liquid": "", "tiresias": "", "spark": ""}
	for _, r := range s.Schedulers {
		if r.SameAs != want[r.Scheduler] {
			t.Errorf("%s SameAs %q, want %q", r.Scheduler, r.SameAs, want[r.Scheduler])
		}
	}
	// gp is liquid: no test at all rather than "p = 1 (n=0)".
	gp := s.Schedulers[0]
	if gp.Test.Method != "" {
		t.Errorf("gp, identical to the best baseline, was tested: %+v", gp.Test)
	}
	h := Headline(s)
	if !strings.Contains(h, "gp: identical to liquid on every instance, so there is nothing to test.") || strings.Contains(h, "p = 1") || strings.Contains(h, "1× liquid") {
		t.Errorf("headline: %s", h)
	}
	var md bytes.Buffer
	if err := WriteSummaryMarkdown(&md, s); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	for _, w := range []string{
		"One row for two schedulers: srsf = tiresias, the normaliser: identical results on every instance.",
		"One row for two schedulers: gp = liquid, the best baseline: identical results on every instance.",
		"| liquid = gp | 7 |", "| tiresias = srsf | 7 |",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("summary.md lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "| srsf |") || strings.Contains(out, "| gp |") || strings.Contains(out, "(n=0)") {
		t.Errorf("summary.md keeps a folded row or an n=0 test:\n%s", out)
	}
	// The CSV, a data file, keeps every row and says which are folded.
	var buf bytes.Buffer
	if err := WriteSummaryCSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d CSV records", len(recs))
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	if recs[2][col["same_as"]] != "tiresias" || recs[1][col["p"]] != "" {
		t.Errorf("csv srsf same_as %q, gp p %q", recs[2][col["same_as"]], recs[1][col["p"]])
	}
}

// A scheduler differing from another in one metric only is not folded.
func TestSummaryFoldNeedsEveryMetric(t *testing.T) {
	rows := foldTable()
	for i := range rows {
		if rows[i].Scheduler == "srsf" && rows[i].Instance == "i3" {
			rows[i].MaxQT++
		}
	}
	s, err := Summarize(rows, SummaryOptions{Baselines: testBaselines})
	if err != nil {
		t.Fatal(err)
	}
	if s.Schedulers[1].SameAs != "" {
		t.Fatalf("srsf folded though its MaxQT differs on i3")
	}
}

// The best baseline chosen on other data is used and named; one absent
// from the rows is an error, not a silent fallback.
func TestSummaryBestBaselineChosenElsewhere(t *testing.T) {
	s, err := Summarize(foldTable(), SummaryOptions{Baselines: testBaselines, BestBaseline: "spark", BestBaselineBasis: "on the validation set of run r1"})
	if err != nil {
		t.Fatal(err)
	}
	if s.BestBaseline != "spark" || s.BestBaselineBasis != "on the validation set of run r1" {
		t.Fatalf("best %q basis %q", s.BestBaseline, s.BestBaselineBasis)
	}
	h := Headline(s)
	if !strings.HasPrefix(h, "Best baseline: spark, chosen on the validation set of run r1.") {
		t.Errorf("headline: %s", h)
	}
	// gp vs spark on 7 instances, all better: exact p = 2/2^7.
	if g := s.Schedulers[0].Test; !g.CanReject() || math.Abs(g.P-2.0/128) > 1e-15 || !strings.Contains(h, "significantly better (Wilcoxon p = 0.0156, n = 7)") {
		t.Errorf("gp test %+v; headline %s", g, h)
	}
	if _, err := Summarize(foldTable(), SummaryOptions{Baselines: testBaselines, BestBaseline: "lyra", BestBaselineBasis: "on x"}); err == nil || !strings.Contains(err.Error(), `"lyra"`) {
		t.Fatalf("absent best baseline: %v", err)
	}
	s, err = Summarize(foldTable(), SummaryOptions{Baselines: testBaselines})
	if err != nil {
		t.Fatal(err)
	}
	if s.BestBaselineBasis != BasisThisData {
		t.Fatalf("basis %q", s.BestBaselineBasis)
	}
}

// The test verdict for each n around the threshold.
func TestTestVerdictThreshold(t *testing.T) {
	for n := 1; n <= 7; n++ {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = 1, float64(2+i)
		}
		w, err := WilcoxonSignedRank(x, y)
		if err != nil {
			t.Fatal(err)
		}
		v := TestVerdict(w)
		if small := strings.HasPrefix(v, "n too small for a test"); small != (n < 6) {
			t.Errorf("n=%d: %q", n, v)
		}
		if n >= 6 && !strings.HasPrefix(v, "significantly better (Wilcoxon p = ") {
			t.Errorf("n=%d: %q", n, v)
		}
	}
}

// Ratios without information are said in words: an interval whose ends
// agree to three digits, and a mean ratio of 1.
func TestRatioTextsWithoutNonInformation(t *testing.T) {
	p := Paired{MedianRatio: 1, RatioLo: 1, RatioHi: 1, MeanRatio: 1.0002, MeanRatioLo: 0.9999, MeanRatioHi: 1.0004}
	if got := RatioWithCI(p); got != "1 (the 95 % CI is the single value 1)" {
		t.Errorf("RatioWithCI = %q", got)
	}
	if got := MeanRatioText(p, "liquid"); got != "within 0.05 % of liquid's" {
		t.Errorf("MeanRatioText = %q", got)
	}
	p = Paired{MeanRatio: 0.7, MeanRatioLo: 0.61, MeanRatioHi: 0.83}
	if got := MeanRatioText(p, "liquid"); got != "0.7× liquid's (paired 95 % CI 0.61–0.83)" {
		t.Errorf("MeanRatioText = %q", got)
	}
}

// The interval of the ratio is paired: with baseline objectives spread
// over two orders of magnitude and the scheduler at 0.9× ± 1 % on each
// instance, the paired interval stays within [0.88, 0.92], where an
// unpaired one (ratio of independently resampled means) spans far more.
func TestPairedRatioIntervalIsPaired(t *testing.T) {
	var x, y []float64
	for i := range 12 {
		b := math.Pow(10, float64(i)/5.5)
		y = append(y, b)
		x = append(x, b*(0.9+0.01*float64(i%3-1)))
	}
	lo, hi := pairedRatioCI(x, y)
	if !(lo >= 0.88 && hi <= 0.92 && lo < hi) {
		t.Fatalf("paired interval [%v, %v]", lo, hi)
	}
	ux, uy := bootstrapMeanCI(x), bootstrapMeanCI(y)
	if ux.High/uy.Low-ux.Low/uy.High < 10*(hi-lo) {
		t.Fatalf("unpaired spread %v not much wider than paired %v", ux.High/uy.Low-ux.Low/uy.High, hi-lo)
	}
	if lo, hi := pairedRatioCI(x[:5], y[:5]); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Fatalf("5 pairs gave an interval [%v, %v]", lo, hi)
	}
}

// TestBestBaselineIsLowestNormalised: the best baseline chosen on the rows
// is internal/bestbaseline's, the lowest mean normalised objective, not the
// lowest mean rank: here spark's objective is 1.1× the reference's on
// every instance and liquid's 2×, 1.05×, 1.05×, so liquid ranks better on
// two of three instances but spark is best; and without the reference the
// mean objective decides.
func TestBestBaselineIsLowestNormalised(t *testing.T) {
	var rows []ResultRow
	add := func(inst, sched string, obj float64) {
		rows = append(rows, ResultRow{Instance: inst, Scheduler: sched, Jobs: 5, Objective: obj, AvgJCT: obj, MaxQT: obj, Makespan: 10})
	}
	for _, r := range []struct {
		inst                   string
		ref, spark, liquid, gp float64
	}{{"a", 1, 1.1, 2, 3}, {"b", 10, 11, 10.5, 9}, {"c", 10, 11, 10.5, 9}} {
		add(r.inst, "tiresias", r.ref)
		add(r.inst, "spark", r.spark)
		add(r.inst, "liquid", r.liquid)
		add(r.inst, "gp", r.gp)
	}
	s, err := Summarize(rows, SummaryOptions{Baselines: []string{"spark", "liquid"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.BestBaseline != "spark" || s.BestByObjective {
		t.Fatalf("best baseline %q (by objective %v), want spark by normalised objective", s.BestBaseline, s.BestByObjective)
	}
	var noRef []ResultRow
	for _, r := range rows {
		if r.Scheduler != "tiresias" {
			noRef = append(noRef, r)
		}
	}
	if s, err = Summarize(noRef, SummaryOptions{Baselines: []string{"spark", "liquid"}}); err != nil {
		t.Fatal(err)
	}
	// Mean objectives: spark 23.1/3, liquid 23/3.
	if s.BestBaseline != "liquid" || !s.BestByObjective || !strings.Contains(Headline(s), "lowest mean objective over these 3 instances, not normalised") {
		t.Fatalf("without the reference: best baseline %q (by objective %v): %s", s.BestBaseline, s.BestByObjective, Headline(s))
	}
}

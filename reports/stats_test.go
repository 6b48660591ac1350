package reports

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// statsTable: 4 instances, three schedulers; objectives chosen so that
// every quantity can be worked out by hand:
//
//	instance  gp  tiresias  spark
//	a          1     2        4
//	b          2     2        3     (gp and tiresias tie for first)
//	c          3     6        1
//	d          —     4        8     (gp missing: not ranked)
func statsTable() []ResultRow {
	var rows []ResultRow
	add := func(inst, sched string, obj float64) {
		rows = append(rows, ResultRow{Instance: inst, Scheduler: sched, Jobs: 5, CQAvg: obj / 2, CQMax: obj / 2, Util: 0.5, Objective: obj, AvgJCT: obj, MaxQT: obj, Makespan: 10})
	}
	add("a", "gp", 1)
	add("a", "tiresias", 2)
	add("a", "spark", 4)
	add("b", "gp", 2)
	add("b", "tiresias", 2)
	add("b", "spark", 3)
	add("c", "gp", 3)
	add("c", "tiresias", 6)
	add("c", "spark", 1)
	add("d", "tiresias", 4)
	add("d", "spark", 8)
	return rows
}

func TestSummarize(t *testing.T) {
	s, err := Summarize(statsTable(), SummaryOptions{Baselines: testBaselines})
	if err != nil {
		t.Fatal(err)
	}
	if s.Instances != 4 || s.Ranked != 3 || s.Reference != "tiresias" {
		t.Fatalf("instances %d ranked %d ref %q", s.Instances, s.Ranked, s.Reference)
	}
	names := []string{}
	for _, r := range s.Schedulers {
		names = append(names, r.Scheduler)
	}
	if strings.Join(names, ",") != "gp,tiresias,spark" {
		t.Fatalf("order %v", names)
	}
	gp, tir, spark := s.Schedulers[0], s.Schedulers[1], s.Schedulers[2]
	// gp objective 1,2,3: mean 2, sd 1.
	if gp.Objective.Mean != 2 || gp.Objective.SD != 1 || gp.Objective.N != 3 {
		t.Fatalf("gp objective %+v", gp.Objective)
	}
	// gp normalised: 1/2, 2/2, 3/6 → mean 2/3.
	if !near(gp.Normalized.Mean, 2.0/3, 1e-15) || gp.Normalized.N != 3 {
		t.Fatalf("gp normalised %+v", gp.Normalized)
	}
	// spark normalised: 4/2, 3/2, 1/6, 8/4 → mean (2+1.5+1/6+2)/4.
	if !near(spark.Normalized.Mean, (2+1.5+1.0/6+2)/4, 1e-15) || spark.Normalized.N != 4 {
		t.Fatalf("spark normalised %+v", spark.Normalized)
	}
	if tir.Normalized.Mean != 1 || tir.Normalized.SD != 0 {
		t.Fatalf("reference normalised %+v", tir.Normalized)
	}
	// Wins: a → gp; b → gp and tiresias ½ each; c → spark.
	if gp.Wins != 1.5 || tir.Wins != 0.5 || spark.Wins != 1 {
		t.Fatalf("wins %v %v %v", gp.Wins, tir.Wins, spark.Wins)
	}
	// Mid-ranks: a: 1,2,3; b: 1.5,1.5,3; c: 2,3,1.
	if gp.MeanRank != 4.5/3 || tir.MeanRank != 6.5/3 || spark.MeanRank != 7.0/3 {
		t.Fatalf("mean ranks %v %v %v", gp.MeanRank, tir.MeanRank, spark.MeanRank)
	}
	// Competition ranks: gp 1,1,2; tiresias 2,1,3; spark 3,3,1.
	wantCounts := [][]int{{2, 1, 0}, {1, 1, 1}, {1, 0, 2}}
	for i, r := range s.Schedulers {
		for k := range wantCounts[i] {
			if r.RankCounts[k] != wantCounts[i][k] {
				t.Fatalf("%s rank counts %v, want %v", r.Scheduler, r.RankCounts, wantCounts[i])
			}
		}
	}
	// Best baseline by mean rank: tiresias (6.5/3) beats spark (7/3).
	if s.BestBaseline != "tiresias" || tir.Test.Method != "" {
		t.Fatalf("best baseline %q, its test %+v", s.BestBaseline, tir.Test)
	}
	// gp vs tiresias on a, b, c: d = −1, 0, −3 → n = 2, W+ = 0, W− = 3,
	// exact p = 2·P(W+ ≤ 0) = 2·¼ = ½.
	if g := gp.Test; g.Method != "exact" || g.N != 2 || g.Zeros != 1 || g.WPlus != 0 || g.WMinus != 3 || g.P != 0.5 {
		t.Fatalf("gp test %+v", g)
	}
	// spark vs tiresias on all 4: d = 2, 1, −5, 4 → ranks 2, 1, 4, 3;
	// W+ = 6, W− = 4; subsets of {1..4} with sum ≤ 4 are {}, {1}, {2}, {3},
	// {1,2}, {4}, {1,3}, so p = 2·P(W+ ≤ 4) = 2·7/16 = 0.875.
	if g := spark.Test; g.N != 4 || g.WPlus != 6 || g.WMinus != 4 || g.P != 0.875 {
		t.Fatalf("spark test %+v", g)
	}
}

func TestSummarizeOptionsAndErrors(t *testing.T) {
	s, err := Summarize(statsTable(), SummaryOptions{Reference: "spark", Baselines: []string{"spark"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.BestBaseline != "spark" || s.Schedulers[2].Normalized.Mean != 1 {
		t.Fatalf("reference spark: %+v", s)
	}
	// No baseline present: no tests; unknown reference: undefined ratios.
	s, err = Summarize(statsTable(), SummaryOptions{Reference: "nope", Baselines: []string{"lyra"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.BestBaseline != "" || s.Schedulers[0].Test.Method != "" || !math.IsNaN(s.Schedulers[0].Normalized.Mean) {
		t.Fatalf("no baseline: %+v", s.Schedulers[0])
	}
	if _, err := Summarize(nil, SummaryOptions{Baselines: testBaselines}); err == nil {
		t.Fatal("empty table accepted")
	}
	dup := append(statsTable(), statsTable()[0])
	if _, err := Summarize(dup, SummaryOptions{Baselines: testBaselines}); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Fatalf("duplicate: %v", err)
	}
}

func TestSummaryWriters(t *testing.T) {
	s, err := Summarize(statsTable(), SummaryOptions{Baselines: testBaselines, Reference: "nope"})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := WriteSummaryMarkdown(&md, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| gp | 3 | 2 ± 1 | – |",
		"best baseline `tiresias`",
		"| 0 / 3 (n=2) | n too small for a test |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Fatalf("markdown lacks %q:\n%s", want, md.String())
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
	if len(recs) != 4 {
		t.Fatalf("%d CSV records", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	gp := recs[1]
	checks := map[string]string{"scheduler": "gp", "objective_mean": "2", "objective_sd": "1", "normalized_mean": "",
		"wins": "1.5", "rank_1": "2", "rank_3": "0", "test_against": "tiresias", "test_method": "exact", "p": "0.5", "z": ""}
	for k, v := range checks {
		i, ok := col[k]
		if !ok {
			t.Fatalf("no column %q in %v", k, recs[0])
		}
		if gp[i] != v {
			t.Fatalf("gp %s = %q, want %q", k, gp[i], v)
		}
	}
	dir := t.TempDir()
	if err := WriteSummaryFiles(dir, s); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"summary.md", "summary.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
}

// testBaselines are the named baselines as the test tables name them
// (the registry's list is policies.Baselines(), which reports may not
// import; callers pass it).
var testBaselines = []string{"spark", "liquid", "tiresias", "lyra", "wait-first"}

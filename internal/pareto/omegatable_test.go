package pareto

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var updateOmegaGolden = flag.Bool("update-omega", false, "rewrite testdata/omega_table.golden")

// handInput: members A (validation (1, 0.5)) and B ((0.5, 1)); baselines
// x ((0.9, 0.9)) and y ((1.2, 0.4)); two test instances.
func handInput() OmegaInput {
	return OmegaInput{
		Members:           []string{"A", "B"},
		MemberSelection:   [][]float64{{1, 0.5}, {0.5, 1}},
		Baselines:         []string{"x", "y"},
		BaselineSelection: [][]float64{{0.9, 0.9}, {1.2, 0.4}},
		MemberTest:        [][][]float64{{{1, 0.4}, {1, 0.6}}, {{0.4, 1}, {0.6, 1}}},
		BaselineTest:      [][][]float64{{{0.9, 0.9}, {0.9, 0.9}}, {{1.2, 0.4}, {1.2, 0.6}}},
	}
}

// Worked by hand:
//   - ω = 0 (o2 alone): A (0.5 < 1) against y (0.4 < 0.9); on test A's
//     0.4, 0.6 equal y's: mean 0.5 each, ratio 1, 0/2/0.
//   - ω = 0.5: A and B tie at 0.75 (lowest index: A); y (0.8 < 0.9); A's
//     0.7, 0.8 against y's 0.8, 0.9: means 0.75 and 0.85, 2/0/0.
//   - ω = 1 (o1 alone): B (0.5) against x (0.9); B's 0.4, 0.6 against 0.9,
//     0.9: means 0.5 and 0.9, ratio 5/9, 2/0/0.
func TestOmegaTableHandCase(t *testing.T) {
	rows, err := OmegaTable(handInput(), []float64{0, 0.5, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []OmegaRow{
		{Omega: 0, Member: "A", MemberTest: 0.5, Baseline: "y", BaselineTest: 0.5, Ratio: 1, Tied: 2},
		{Omega: 0.5, Member: "A", MemberTest: 0.75, Baseline: "y", BaselineTest: 0.85, Ratio: 0.75 / 0.85, Better: 2},
		{Omega: 1, Member: "B", MemberTest: 0.5, Baseline: "x", BaselineTest: 0.9, Ratio: 5.0 / 9, Better: 2},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }
	for i, r := range rows {
		w := want[i]
		if r.Omega != w.Omega || r.Member != w.Member || r.Baseline != w.Baseline || !near(r.MemberTest, w.MemberTest) ||
			!near(r.BaselineTest, w.BaselineTest) || !near(r.Ratio, w.Ratio) || r.Better != w.Better || r.Tied != w.Tied || r.Worse != w.Worse {
			t.Errorf("ω = %v: %+v, want %+v", w.Omega, r, w)
		}
	}
	// A member worse on one instance: 1/0/1.
	in := handInput()
	in.MemberTest[1][1] = []float64{1.5, 1}
	rows, err = OmegaTable(in, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Better != 1 || r.Tied != 0 || r.Worse != 1 || !near(r.MemberTest, 0.95) {
		t.Errorf("ω = 1 with B at 1.5 on instance 2: %+v", r)
	}
	// Three objectives: the third is weighted 0.
	if w := OmegaWeights(3, 0.25); w[0] != 0.25 || w[1] != 0.75 || w[2] != 0 {
		t.Errorf("OmegaWeights(3, 0.25) = %v", w)
	}
	if _, err := OmegaTable(in, []float64{1.5}); err == nil {
		t.Error("ω = 1.5 accepted")
	}
	in.BaselineTest[0] = in.BaselineTest[0][:1]
	if _, err := OmegaTable(in, []float64{0}); err == nil {
		t.Error("mismatched test instance counts accepted")
	}
}

// The printed table's format (golden file; -update-omega rewrites it).
func TestWriteOmegaTableGolden(t *testing.T) {
	rows, err := OmegaTable(handInput(), OmegaGrid())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteOmegaTable(&buf, rows, []string{"avg_jct", "max_qt", "util"}, "the test split (2 instances)", "validation"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "omega_table.golden")
	if *updateOmegaGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("ω table:\n%s\nwant (%s):\n%s", buf.Bytes(), path, want)
	}
}

package tradeoff

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/evogp/evogp/internal/latex"
	"github.com/evogp/evogp/reports"
)

var update = flag.Bool("update", false, "rewrite testdata/table.tex")

// The table of a two-tree sweep with a protected division, golden; it
// passes latex.Check and compiles standalone with pdflatex (CI installs
// texlive; elsewhere the compile step skips without it).
func TestTableGoldenCompiles(t *testing.T) {
	pts := []point{
		{row: reports.SweepRow{Omega: 0.5, Seed: 2, AvgJCT: 2.25, MaxQT: 0.5}, f: `g \cdot d`, routing: `W + \operatorname{pdiv}\left(f, n\right)`},
		{row: reports.SweepRow{Omega: 0, Seed: 1, AvgJCT: 3.125, MaxQT: 0.25}, f: `\frac{q}{d}`},
		{row: reports.SweepRow{Omega: 0.5, Seed: 1, AvgJCT: 2, MaxQT: 1}, f: `-a`, routing: `m`},
	}
	base := []reports.BaselinePoint{{Name: "liquid", AvgJCT: 2.5, MaxQT: 1.5}, {Name: "my_sched", AvgJCT: 4, MaxQT: 0.75}}
	got := Table(pts, base)
	path := filepath.Join("testdata", "table.tex")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("table:\n%s\nwant\n%s", got, want)
	}
	if err := latex.Check(latex.Standalone(got)); err != nil {
		t.Fatal(err)
	}
	ok, err := latex.Compile(context.Background(), latex.Standalone(got))
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: pdflatex is not installed")
		}
		t.Skip("pdflatex not installed")
	}
	if err != nil {
		t.Fatal(err)
	}
}

package reports

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// plotOps: two schedulers, |Js| from 1 to 40, wall time growing with |Js|
// (one operation under 1 µs, drawn at the resolution).
func plotOps() []OpsRow {
	var rows []OpsRow
	for s, sched := range []string{"evo-srsf", "evo-fifo"} {
		for i := range 40 {
			js := int64(i + 1)
			rows = append(rows, OpsRow{Instance: "inst-1", Scheduler: sched, T: int64(i) * 60, JS: js, Generations: 10, Evaluations: 100,
				MCTFitness: 2, EVOFitness: 1.5, WallMS: float64(js*js) * 0.01 * float64(s+1)})
		}
	}
	rows[0].WallMS = 0
	return rows
}

func plotEVOResults() ([]ResultRow, []EVOPair) {
	var rows []ResultRow
	obj := map[string][]float64{"liquid": {10, 20}, "evo-fifo": {8, 12}, "tiresias": {6, 9}, "evo-srsf": {5, 9}}
	for _, s := range []string{"liquid", "tiresias", "evo-fifo", "evo-srsf"} {
		for i, inst := range []string{"a", "b"} {
			rows = append(rows, ResultRow{Instance: inst, Scheduler: s, Jobs: 10, Objective: obj[s][i], Util: 0.5})
		}
	}
	return rows, []EVOPair{{EVO: "evo-fifo", MCT: "liquid"}, {EVO: "evo-srsf", MCT: "tiresias"}}
}

// Fig. 12 and Fig. 11b render to their golden SVGs, identically twice, with
// their titles and axis labels.
func TestEVOFiguresGolden(t *testing.T) {
	ops, err := OpsTimePlot(plotOps())
	if err != nil {
		t.Fatal(err)
	}
	res, pairs := plotEVOResults()
	rk, err := EVORankingPlot(res, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*Figure{ops, rk} {
		svg, err := f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := f.Render("svg"); !bytes.Equal(svg, again) {
			t.Fatalf("%s: SVG differs between two renders", f.Name)
		}
		p := f.Panels[0][0]
		for _, txt := range []string{p.Title.Text, p.X.Label.Text, p.Y.Label.Text} {
			if !strings.Contains(string(svg), xmlEscape(txt)) {
				t.Errorf("%s: SVG lacks %q", f.Name, txt)
			}
		}
		golden := filepath.Join("testdata", f.Name+".svg")
		if *update {
			if err := os.WriteFile(golden, svg, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./reports -run EVOFiguresGolden -update)", err)
		}
		if !bytes.Equal(svg, want) {
			t.Errorf("%s: SVG differs from %s (run with -update if intended)", f.Name, golden)
		}
	}
	if !strings.Contains(ops.Panels[0][0].Title.Text, "80 operations") {
		t.Errorf("title %q", ops.Panels[0][0].Title.Text)
	}
	if _, err := OpsTimePlot(nil); err == nil {
		t.Error("empty ops log accepted")
	}
	if _, err := EVORankingPlot(res, nil); err == nil {
		t.Error("no pairs accepted")
	}
	if _, err := EVORankingPlot(res, []EVOPair{{EVO: "evo-lyra", MCT: "lyra"}}); err == nil || !strings.Contains(err.Error(), "share no instance") {
		t.Errorf("absent pair: err = %v", err)
	}
}

// Buckets are powers of two; the medians are the hand-computed middle
// values.
func TestOpsMedians(t *testing.T) {
	for js, b := range map[int64]int{1: 0, 2: 1, 3: 1, 4: 2, 7: 2, 8: 3, 1000: 9, 1024: 10} {
		if got := opsBucket(js); got != b {
			t.Errorf("bucket(%d) = %d, want %d", js, got, b)
		}
	}
	rows := []OpsRow{
		{JS: 1, WallMS: 5},
		{JS: 2, WallMS: 1}, {JS: 3, WallMS: 3}, {JS: 3, WallMS: 2},
		{JS: 4, WallMS: 10}, {JS: 6, WallMS: 30},
	}
	got := OpsMedians(rows)
	want := plotter.XYs{{X: 1, Y: 5}, {X: 3, Y: 2}, {X: 5, Y: 20}}
	if len(got) != len(want) {
		t.Fatalf("medians %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("bucket %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// Pair objectives are means over the instances both schedulers ran.
func TestEVOPairObjectives(t *testing.T) {
	rows, pairs := plotEVOResults()
	rows = append(rows, ResultRow{Instance: "c", Scheduler: "liquid", Jobs: 1, Objective: 1000})
	mct, evo, n, err := EVOPairObjectives(rows, pairs)
	if err != nil {
		t.Fatal(err)
	}
	if mct[0] != 15 || evo[0] != 10 || mct[1] != 7.5 || evo[1] != 7 || n[0] != 2 || n[1] != 2 {
		t.Fatalf("mct %v, evo %v, n %v", mct, evo, n)
	}
}

// The ops table round-trips through Parquet and CSV, and a bad row is
// refused before anything is written.
func TestOpsTable(t *testing.T) {
	dir := t.TempDir()
	rows := plotOps()
	for _, name := range []string{"ops.parquet", "ops.csv"} {
		p := filepath.Join(dir, name)
		if err := WriteOps(p, rows); err != nil {
			t.Fatal(err)
		}
		got, err := ReadOps(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(rows) || got[5] != rows[5] {
			t.Fatalf("%s: read %d rows, row 5 %+v, want %+v", name, len(got), got[5], rows[5])
		}
	}
	for _, bad := range []struct {
		edit func(*OpsRow)
		want string
	}{
		{func(r *OpsRow) { r.JS = 0 }, "js = 0"},
		{func(r *OpsRow) { r.WallMS = math.NaN() }, "wall_ms"},
		{func(r *OpsRow) { r.EVOFitness = -1 }, "evo_fitness"},
		{func(r *OpsRow) { r.Scheduler = "" }, "scheduler is empty"},
	} {
		rs := plotOps()
		bad.edit(&rs[3])
		p := filepath.Join(dir, "bad.parquet")
		if err := WriteOps(p, rs); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("err = %v, want %q", err, bad.want)
		}
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written despite a bad row", p)
		}
	}
}

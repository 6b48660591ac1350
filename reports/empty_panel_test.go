package reports

import "testing"

// No figure of any kind has an empty panel: every row of the grid is
// full, and every panel draws data, shown by its tooltips (each figure
// puts one over what it draws: a bar, a point, a curve).
func TestNoEmptyPanelAnyKind(t *testing.T) {
	figs := allFigureKinds(t)
	// Five schedulers: the queue-density grid is one full row.
	var five []JobRow
	for k, s := range []string{"a", "b", "c", "d", "e"} {
		for _, j := range manyJobs() {
			if j.Scheduler == "gp" {
				j.Scheduler = s
				j.Queue += int64(k) * 60
				j.Start += int64(k) * 60
				j.Finish += int64(k) * 60
				five = append(five, j)
			}
		}
	}
	f, err := QueueDensityPlot(five, "")
	if err != nil {
		t.Fatal(err)
	}
	figs = append(figs, f)
	for _, f := range figs {
		cols := 0
		for _, row := range f.Panels {
			cols = max(cols, len(row))
		}
		drawn := map[[2]int]bool{}
		for _, tip := range f.Tips {
			drawn[[2]int{tip.Row, tip.Col}] = true
		}
		for i, row := range f.Panels {
			if len(row) != cols {
				t.Errorf("%s: row %d has %d of %d panels (a blank slot)", f.Name, i, len(row), cols)
			}
			for j, p := range row {
				if p == nil || !drawn[[2]int{i, j}] {
					t.Errorf("%s: panel %d,%d draws nothing", f.Name, i, j)
				}
			}
		}
	}
}

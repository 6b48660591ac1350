package experiment

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// Files a sweep directory gets beside sweep.parquet.
const (
	// SweepCSV is sweep.parquet's CSV twin (same columns).
	SweepCSV = "sweep.csv"
	// SweepTableFile is the sweep table as Markdown: each point's test
	// means, formula and warnings, and the means across seeds.
	SweepTableFile = "sweep.md"
)

// SweepLine is one point of a sweep table: its sweep.parquet row and what
// its best.json says of the learned formula ("" and nil while the point
// has no best.json).
type SweepLine struct {
	Row      reports.SweepRow
	Formula  string
	Warnings []string
}

// shorter is the simplified form, or the evolved one when that is shorter
// (or the simplified form is missing).
func shorter(simplified, infix string) string {
	if simplified == "" || len(infix) < len(simplified) {
		return infix
	}
	return simplified
}

// SweepLines reads the formula and warnings of every row's point in the
// sweep directory dir.
func SweepLines(dir string, rows []reports.SweepRow) ([]SweepLine, error) {
	out := make([]SweepLine, len(rows))
	for i, r := range rows {
		out[i].Row = r
		path := filepath.Join(pointDirOf(dir, r), runfile.BestFile)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sweep table: %w", err)
		}
		b, err := runfile.DecodeBest(path, data)
		if err != nil {
			return nil, fmt.Errorf("sweep table: %w", err)
		}
		out[i].Formula = shorter(b.Simplified, b.Infix)
		route := shorter(b.RoutingSimplified, b.RoutingInfix)
		if red := b.Reduced; red != nil && red.Readable != "" {
			// The reduced trees: the same schedule on every training and
			// validation instance, in readable notation.
			out[i].Formula, route = red.Readable, red.RoutingReadable
		}
		if r := route; r != "" {
			// A two-tree point: both trees, as the learner names them.
			out[i].Formula = "R = " + r + " ; f = " + out[i].Formula
		}
		out[i].Warnings = b.Warnings
	}
	return out, nil
}

func (l SweepLine) formula() string {
	if l.Formula == "" {
		return "– (not finished)"
	}
	return l.Formula
}

func (l SweepLine) warnings() string {
	if len(l.Warnings) == 0 {
		return "–"
	}
	return strings.Join(l.Warnings, "; ")
}

// WriteSweepTable prints the sweep table for a terminal: one line per
// point with its test means, formula and warnings, then, when a point ran
// under several seeds, its means across them (SeedAggregates).
func WriteSweepTable(w io.Writer, lines []SweepLine) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "point\tomega\tseed\ttest avg_jct h\ttest max_qt h\ttest objective\tformula\twarnings")
	for _, l := range lines {
		r := l.Row
		fmt.Fprintf(tw, "%s\t%g\t%d\t%.4f\t%.4f\t%.4f\t%s\t%s\n", r.Point, r.Omega, r.Seed, r.AvgJCT, r.MaxQT, r.Objective, l.formula(), l.warnings())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	agg := reports.SeedAggregates(rowsOf(lines))
	if agg == nil {
		return nil
	}
	fmt.Fprintln(w, "\nacross seeds (mean ± sd over n seeds):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "point\tomega\tn\ttest avg_jct h\ttest max_qt h\ttest objective")
	for _, a := range agg {
		fmt.Fprintf(tw, "%s\t%g\t%d\t%s\t%s\t%s\n", a.Point, a.Omega, a.N, pmStat(a.AvgJCT), pmStat(a.MaxQT), pmStat(a.Objective))
	}
	return tw.Flush()
}

// WriteSweepMarkdown writes the sweep table as Markdown (SweepTableFile).
func WriteSweepMarkdown(w io.Writer, lines []SweepLine) error {
	var b strings.Builder
	b.WriteString("# Sweep\n\nOne row per point: the learned formula's test-set means (hours), its formula and the learner's warnings.\n\n")
	b.WriteString("| point | ω | seed | test avg_jct (h) | test max_qt (h) | test objective | formula | warnings |\n|---|---:|---:|---:|---:|---:|---|---|\n")
	for _, l := range lines {
		r := l.Row
		fmt.Fprintf(&b, "| %s | %g | %d | %.4f | %.4f | %.4f | `%s` | %s |\n", mdCell(r.Point), r.Omega, r.Seed, r.AvgJCT, r.MaxQT, r.Objective,
			strings.ReplaceAll(l.formula(), "`", "'"), mdCell(l.warnings()))
	}
	if agg := reports.SeedAggregates(rowsOf(lines)); agg != nil {
		b.WriteString("\n## Across seeds\n\nMean ± sd over the n seeds of each point.\n\n| point | ω | n | test avg_jct (h) | test max_qt (h) | test objective |\n|---|---:|---:|---:|---:|---:|\n")
		for _, a := range agg {
			fmt.Fprintf(&b, "| %s | %g | %d | %s | %s | %s |\n", mdCell(a.Point), a.Omega, a.N, pmStat(a.AvgJCT), pmStat(a.MaxQT), pmStat(a.Objective))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdCell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }

func pmStat(s reports.Stat) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.4f ± %.2g", s.Mean, s.SD)
}

func rowsOf(lines []SweepLine) []reports.SweepRow {
	rows := make([]reports.SweepRow, len(lines))
	for i, l := range lines {
		rows[i] = l.Row
	}
	return rows
}

// SweepPointBest is one finished point of a sweep and its best.json.
type SweepPointBest struct {
	Point string // the point's overrides, seed included ("objective.omega=0 seed=1")
	Best  string // path of its best.json
}

// SweepBests lists the best.json of every finished point of the sweep
// directory dir, in sweep.parquet's point order (what `evogp export
// SWEEP_DIR` exports). ok is false when dir is not a collected sweep.
func SweepBests(dir string) (points []SweepPointBest, ok bool, err error) {
	path := filepath.Join(dir, "sweep.parquet")
	if _, err := os.Stat(path); err != nil {
		return nil, false, nil
	}
	rows, err := reports.ReadSweep(path)
	if err != nil {
		return nil, true, err
	}
	for _, r := range rows {
		best := filepath.Join(pointDirOf(dir, r), runfile.BestFile)
		if _, err := os.Stat(best); err != nil {
			continue
		}
		name := r.Overrides
		if name == "" {
			name = r.Point
		}
		points = append(points, SweepPointBest{Point: name, Best: best})
	}
	return points, true, nil
}

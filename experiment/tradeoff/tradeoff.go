package tradeoff

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/latex"
	"github.com/evogp/evogp/reports"
)

// TableFile is the LaTeX table written beside the figure.
const TableFile = reports.TradeoffFrontName + ".tex"

// Help is the description of `evogp figure tradeoff`.
const Help = "Reads each DIR, a collected ω sweep (evogp learn -m ... objective.kind=single\n" +
	"objective.omega=0,0.25,... seed=1,2,3: sweep.parquet, baselines.parquet, every point's best.json)\n" +
	"or an eval of fronts (evogp eval f1=RUN1 f2=RUN2 ... of gp.selection: nsga2 runs with gp.objectives\n" +
	"[avg_jct, max_qt]: each front's member picked on validation for each ω of --omegas, at its test\n" +
	"means; the eval's other schedulers are the baselines), pools the seeds (sweep points, or fronts)\n" +
	"of each ω over all DIRs and writes into --out (default: the first DIR):\n" +
	"  " + reports.TradeoffFrontName + ".png/.svg  AvgJCT against MaxQT on the test set: each ω a black point at the\n" +
	"                       mean over its seeds, bars spanning the seeds' range; each baseline a labelled\n" +
	"                       square in its fixed colour; labels never cover a label or a point; an axis\n" +
	"                       is logarithmic when a value on it is more than 10x another;\n" +
	"  " + TableFile + "     a booktabs table (\\input it; --standalone: a document that compiles alone):\n" +
	"                       per ω and seed the formula simplified on the simulator's inputs and its\n" +
	"                       test AvgJCT and MaxQT, then the baselines' means.\n" +
	"DIRs must agree on the baselines' rows they share (the same test sets)."

// Options say what Run reads and writes.
type Options struct {
	Dirs       []string
	Out        string   // output directory ("" = Dirs[0])
	Formats    []string // figure formats (reports.ParseFormats)
	Standalone bool     // the table as a document that compiles alone
	// Omegas is the grid of ω at which a front's members are picked on
	// validation (nil: DefaultOmegas); sweeps bring their own ω.
	Omegas []float64

	layout *figure.LabelLayout // tests: receives the figure's label boxes
}

func (o Options) omegas() []float64 {
	if len(o.Omegas) == 0 {
		return DefaultOmegas
	}
	return o.Omegas
}

// point is one sweep row with its formulas.
type point struct {
	row        reports.SweepRow
	f, routing string // LaTeX math; routing "" for a one-tree run
	front      bool   // a front's member picked on validation for row.Omega
}

// Run reads the sweeps, renders the figure and the table in memory, and
// writes them (each atomically) only when everything succeeded; it
// prints the files written to w.
func Run(ctx context.Context, o Options, w io.Writer) error {
	if len(o.Dirs) == 0 {
		return errors.New("figure tradeoff: give one or more sweep directories")
	}
	if o.Out == "" {
		o.Out = o.Dirs[0]
	}
	var rows []reports.SweepRow
	var pts []point
	var base []reports.ResultRow
	for _, dir := range o.Dirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, b, err := readDir(dir, o.omegas())
		if err != nil {
			return err
		}
		pts = append(pts, p...)
		if base, err = mergeBaselines(base, b, dir); err != nil {
			return err
		}
	}
	for _, p := range pts {
		rows = append(rows, p.row)
	}
	omegas, err := reports.OmegaPoints(rows)
	if err != nil {
		return fmt.Errorf("figure tradeoff: %w", err)
	}
	baselines := reports.BaselinePoints(base)
	var notes []string
	if slices.ContainsFunc(pts, func(p point) bool { return p.front }) {
		notes = append(notes, "a front's point at ω: its member picked on validation for ω (the one whose ω interval holds ω), at its test means")
	}
	if sets := dataSeeds(base); sets > 1 {
		// seed=1,2,3 varies the data too: say what the points pool.
		notes = append(notes, fmt.Sprintf("the seeds ran on %d test sets (seed sets the data too); each baseline is its mean over the same %d", sets, sets))
	}
	fig, err := reports.TradeoffFrontPlot(omegas, baselines, o.layout, notes...)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	var names []string
	for _, format := range o.Formats {
		b, err := fig.Render(format)
		if err != nil {
			return err
		}
		name := fig.Name + "." + format
		files[name], names = b, append(names, name)
	}
	tab := Table(pts, baselines)
	if o.Standalone {
		tab = latex.Standalone(tab)
	}
	if err := latex.Check(tab); err != nil {
		return fmt.Errorf("figure tradeoff: table: %w", err) // a bug, never the user's input
	}
	files[TableFile], names = []byte(tab), append(names, TableFile)
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	for _, n := range names {
		if err := atomicio.WriteBytes(filepath.Join(o.Out, n), files[n]); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "%s: %s (%d ω values, %d runs, %d baselines)\n", o.Out, strings.Join(names, ", "), len(omegas), len(rows), len(baselines))
	return nil
}

// readSweep reads one collected sweep: its rows with their formulas, and
// its baselines' test rows (none when baselines.parquet is absent).
func readSweep(dir string) ([]point, []reports.ResultRow, error) {
	bests, ok, err := experiment.SweepBests(dir)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, fmt.Errorf("figure tradeoff: %s is neither a collected sweep (no sweep.parquet; run evogp collect %s) nor an eval of fronts (evogp eval f=RUN ...)", dir, dir)
	}
	byName := map[string]string{}
	for _, b := range bests {
		byName[b.Point] = b.Best
	}
	rows, err := reports.ReadSweep(filepath.Join(dir, "sweep.parquet"))
	if err != nil {
		return nil, nil, err
	}
	var pts []point
	for _, r := range rows {
		name := r.Overrides
		if name == "" {
			name = r.Point
		}
		path, ok := byName[name]
		if !ok {
			return nil, nil, fmt.Errorf("figure tradeoff: %s: point %q has no best.json", dir, name)
		}
		p := point{row: r}
		if p.f, p.routing, err = formulas(path); err != nil {
			return nil, nil, err
		}
		pts = append(pts, p)
	}
	base, err := reports.ReadResults(filepath.Join(dir, "baselines.parquet"))
	if errors.Is(err, fs.ErrNotExist) {
		return pts, nil, nil
	}
	return pts, base, err
}

// formulas are a best.json's trees simplified on the simulator's inputs,
// in LaTeX (divisions the domain proves safe as \frac).
func formulas(path string) (f, routing string, err error) {
	infix, err := formula.ReadBestInfix(path)
	if err != nil {
		return "", "", err
	}
	dom := expr.DefaultDomain()
	t, err := expr.Parse(infix)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", path, err)
	}
	if f, err = expr.FormatOn(expr.SimplifyOn(t, dom), "latex", dom); err != nil {
		return "", "", err
	}
	r, err := formula.ReadBestRouting(path)
	if err != nil || r == nil {
		return f, "", err
	}
	rt, err := expr.Routing.Parse(r.Infix)
	if err != nil {
		return "", "", fmt.Errorf("%s: routing: %w", path, err)
	}
	routing, err = expr.FormatOn(expr.SimplifyOn(rt, dom), "latex", dom)
	return f, routing, err
}

// mergeBaselines adds the rows b of dir to acc: a row for an (instance,
// seed, scheduler) acc already holds must be identical (the same test
// set), and is then kept once.
func mergeBaselines(acc, b []reports.ResultRow, dir string) ([]reports.ResultRow, error) {
	type key struct {
		inst, sched string
		seed        int64
	}
	have := map[key]reports.ResultRow{}
	for _, r := range acc {
		have[key{r.Instance, r.Scheduler, r.Seed}] = r
	}
	for _, r := range b {
		k := key{r.Instance, r.Scheduler, r.Seed}
		if old, ok := have[k]; ok {
			if old != r {
				return nil, fmt.Errorf("figure tradeoff: %s: baseline %s on instance %s (seed %d) differs from the same row of an earlier directory: the sweeps were scored on different test sets", dir, r.Scheduler, r.Instance, r.Seed)
			}
			continue
		}
		have[k] = r
		acc = append(acc, r)
	}
	return acc, nil
}

// Table is the booktabs table of the points (sorted by ω, then seed):
// ω, seed, the routing tree when a point has one, the priority function,
// test AvgJCT and MaxQT in hours; then, under a rule, each baseline's
// means.
func Table(pts []point, baselines []reports.BaselinePoint) string {
	pts = slices.Clone(pts)
	slices.SortStableFunc(pts, func(a, b point) int {
		if a.row.Omega != b.row.Omega {
			if a.row.Omega < b.row.Omega {
				return -1
			}
			return 1
		}
		return int(a.row.Seed - b.row.Seed)
	})
	twoTree := slices.ContainsFunc(pts, func(p point) bool { return p.routing != "" })
	cols := []latex.Column{{Header: "$\\omega$", Align: "r"}, {Header: "seed", Align: "r"}}
	if twoTree {
		cols = append(cols, latex.Column{Header: "routing $R(j, p)$", Align: "l"})
	}
	cols = append(cols, latex.Column{Header: "priority $f(j)$", Align: "l"},
		latex.Column{Header: "AvgJCT (h)", Align: "r"}, latex.Column{Header: "MaxQT (h)", Align: "r"})
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	math := func(m string) string {
		if m == "" {
			return "--"
		}
		return "$" + m + "$"
	}
	t := latex.Table{Columns: cols}
	pdiv := false
	for _, p := range pts {
		r := []string{strconv.FormatFloat(p.row.Omega, 'g', -1, 64), strconv.FormatInt(p.row.Seed, 10)}
		if twoTree {
			r = append(r, math(p.routing))
		}
		t.Rows = append(t.Rows, append(r, math(p.f), num(p.row.AvgJCT), num(p.row.MaxQT)))
		pdiv = pdiv || strings.Contains(p.f+p.routing, latex.PdivCommand)
	}
	s := t.String()
	if len(baselines) > 0 {
		b := latex.Table{Columns: cols}
		for _, bl := range baselines {
			cells := []string{latex.EscapeText(bl.Name), ""}
			if twoTree {
				cells = append(cells, "")
			}
			b.Rows = append(b.Rows, append(cells, "", num(bl.AvgJCT), num(bl.MaxQT)))
		}
		// One table: the baselines follow the points under a \midrule.
		bs := b.String()
		body := bs[strings.Index(bs, "\\midrule\n")+len("\\midrule\n") : strings.Index(bs, "  \\bottomrule")]
		s = strings.Replace(s, "  \\bottomrule", "  \\midrule\n"+body+"  \\bottomrule", 1)
	}
	caption := "Learned formulas per $\\omega$ (the weight of AvgJCT in $\\omega \\cdot \\mathrm{AvgJCT} + (1 - \\omega) \\cdot \\mathrm{MaxQT}$), simplified on the simulator's inputs, with their test metrics; below the rule, the baselines' test means."
	if slices.ContainsFunc(pts, func(p point) bool { return p.front }) {
		caption += " For a front, each $\\omega$ lists the member picked on the validation set for that $\\omega$; seed is its learn run's."
	}
	if pdiv {
		caption += " $\\operatorname{pdiv}(x, y) = x$ if $y = 0$, else $x / y$."
	}
	return "\\begin{table}\n  \\centering\n  \\caption{" + caption + "}\n" + s + "\\end{table}\n"
}

// dataSeeds is the number of distinct data seeds of the baselines' rows:
// the test sets a sweep's points were scored on.
func dataSeeds(rows []reports.ResultRow) int {
	seen := map[int64]bool{}
	for _, r := range rows {
		seen[r.Seed] = true
	}
	return len(seen)
}

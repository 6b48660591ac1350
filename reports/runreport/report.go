package runreport

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/cliargs"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/reports/htmlreport"
	"github.com/evogp/evogp/runfile"
)

// ReportFile is the self-contained HTML report of an output directory
// (SPEC §18), written beside its tables and figures.
const ReportFile = "report.html"

// DefaultReportInstances is the number of instances up to which every
// instance of an eval gets its own figures in the report.
const DefaultReportInstances = 12

// ReportOptions choose what the report holds.
type ReportOptions struct {
	// Instances is the largest number of instances whose per-instance
	// sections carry their own breakdown and queue-density figures (0 =
	// DefaultReportInstances). A larger eval keeps per-instance figures
	// only for the instance the directory's figures already draw; every
	// instance keeps its collapsed section with its metrics and ranks.
	Instances int
	// Warnings are extra warnings the run printed, shown at the top.
	Warnings []string
	// Dir is the directory as its reader knows it (default: the directory
	// the report is built in, which may be a temporary sibling).
	Dir string
}

func (b *reportBuilder) instanceLimit() int {
	switch {
	case b.o.Instances > 0:
		return b.o.Instances
	case b.fo.ReportInstances > 0:
		return b.fo.ReportInstances
	}
	return DefaultReportInstances
}

// Report builds report.html for the output directory dir from the tables
// t and the files just rendered from them (files; nil when none were), in
// memory. Figures come from files when it has their SVG, otherwise they
// are rendered here with the same figure code (FigureOptions fo, the
// options the files were drawn with), and every other SVG file of dir
// (the learner's convergence plot, the estimate figures) is inlined as
// written. Manifest, provenance, config and best.json are read from dir.
func (t Tables) Report(dir string, files Files, fo FigureOptions, o ReportOptions, env Env) (File, error) {
	b, err := newReportBuilder(dir, t, files, fo, o, env)
	if err != nil {
		return File{}, err
	}
	r, err := b.build()
	if err != nil {
		return File{}, fmt.Errorf("report %s: %w", dir, err)
	}
	return File{Name: ReportFile, Data: r.Bytes()}, nil
}

// reportBuilder gathers what one report shows.
type reportBuilder struct {
	dir   string
	t     Tables
	fo    FigureOptions
	o     ReportOptions
	figs  []htmlreport.Figure // directory figures in file order
	used  map[string]bool     // figure names placed in a section
	env   Env
	prov  []runfile.Provenance
	man   *runfile.Manifest // nil without one
	rawMn []byte
	best  *runfile.Best
	cfg   string
}

func newReportBuilder(dir string, t Tables, files Files, fo FigureOptions, o ReportOptions, env Env) (*reportBuilder, error) {
	b := &reportBuilder{dir: dir, t: t, fo: fo, o: o, env: env, used: map[string]bool{}}
	if err := b.readMeta(); err != nil {
		return nil, err
	}
	svgs := map[string][]byte{}
	var order []string
	add := func(name string, data []byte) {
		if _, ok := svgs[name]; !ok {
			order = append(order, name)
		}
		svgs[name] = data
	}
	rendered := map[string]bool{}
	for _, f := range files {
		if stem, ok := strings.CutSuffix(f.Name, ".svg"); ok {
			add(stem, f.Data)
		}
		for _, ext := range reports.Formats() {
			if stem, ok := strings.CutSuffix(f.Name, "."+ext); ok {
				rendered[stem] = true
			}
		}
	}
	// Any SVG already in the directory: the learner's convergence plot and
	// the estimate figures are drawn from more than the tables hold. Files
	// just rendered take precedence.
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("report: %w", err)
	}
	var onDisk []string
	for _, e := range entries {
		if stem, ok := strings.CutSuffix(e.Name(), ".svg"); ok && !e.IsDir() {
			if _, have := svgs[stem]; !have {
				onDisk = append(onDisk, stem)
			}
		}
	}
	sort.Strings(onDisk)
	for _, stem := range onDisk {
		data, err := os.ReadFile(filepath.Join(dir, stem+".svg"))
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		add(stem, data)
	}
	// Figures drawn in another format only, or not drawn at all (a report
	// built from the files on disk): render their SVG with the same code.
	missing := files == nil
	for stem := range rendered {
		if _, ok := svgs[stem]; !ok {
			missing = true
		}
	}
	if missing {
		ofo := fo
		ofo.Formats = []string{"svg"}
		if files == nil {
			var d runfile.EvalManifest // what eval drew, when dir is an eval's
			if b.man != nil && b.man.Eval != nil {
				d = *b.man.Eval
			}
			ref, inst := d.Reference, d.Instance
			if ofo.BestBaseline == "" {
				ofo.BestBaseline, ofo.BestBaselineBasis = d.BestBaseline, d.BestBaselineBasis
			}
			if ofo.Reference == "" {
				ofo.Reference = ref
			}
			if ofo.Instance == "" {
				ofo.Instance = inst
			}
		}
		if ofo.Reference == "" {
			ofo.Reference = reports.DefaultReference
		}
		b.fo = ofo
		svgFiles, err := t.Render(ofo)
		if err != nil {
			return nil, err
		}
		for _, f := range svgFiles {
			if stem, ok := strings.CutSuffix(f.Name, ".svg"); ok {
				if _, have := svgs[stem]; !have {
					add(stem, f.Data)
				}
			}
		}
	}
	for _, name := range order {
		b.figs = append(b.figs, htmlreport.Figure{Name: name, Caption: figureCaption(name), SVG: svgs[name]})
	}
	return b, nil
}

// readMeta reads the manifest, provenance, config and best.json of b.dir.
func (b *reportBuilder) readMeta() error {
	read := func(name string) ([]byte, error) {
		data, err := os.ReadFile(filepath.Join(b.dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		return data, nil
	}
	data, err := read(runfile.ManifestFile)
	if err != nil {
		return err
	}
	if data != nil {
		b.rawMn = data
		if b.man, err = runfile.DecodeManifest(filepath.Join(b.dir, runfile.ManifestFile), data); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	if data, err = read(runfile.ProvenanceFile); err != nil {
		return err
	}
	if data != nil {
		if b.prov, err = runfile.DecodeProvenance(filepath.Join(b.dir, runfile.ProvenanceFile), data); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	if data, err = runfile.ReadConfig(b.dir); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	b.cfg = string(data)
	if data, err = read(runfile.BestFile); err != nil {
		return err
	}
	if data != nil {
		best, err := runfile.DecodeBest(filepath.Join(b.dir, runfile.BestFile), data)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		b.best = best
	}
	return nil
}

// kind names what the directory is.
func (b *reportBuilder) kind() string {
	switch {
	case len(b.t.Sweep) > 0:
		return "sweep"
	case len(b.t.Pressure) > 0:
		return "pressure"
	case b.best != nil || len(b.t.Generations) > 0:
		return "learn"
	case len(b.t.Results) > 0:
		return "eval"
	case len(b.figs) > 0:
		return "figures"
	}
	return ""
}

func (b *reportBuilder) build() (htmlreport.Report, error) {
	r := htmlreport.Report{Warnings: slices.Clone(b.o.Warnings)}
	kind := b.kind()
	shown := b.dir
	if b.o.Dir != "" {
		shown = b.o.Dir
	}
	abs, err := filepath.Abs(shown)
	if err != nil {
		abs = shown
	}
	base := filepath.Base(abs)
	switch kind {
	case "":
		return r, fmt.Errorf("not an evogp output directory: no result table (results, generations, sweep, pressure), no best.json and no figure")
	case "eval":
		r.Title = "evogp eval — " + base
		if err := b.evalSections(&r); err != nil {
			return r, err
		}
	case "learn":
		r.Title = "evogp learn — " + base
		if err := b.learnSections(&r); err != nil {
			return r, err
		}
	case "sweep":
		r.Title = "evogp sweep — " + base
		if err := b.sweepSections(&r); err != nil {
			return r, err
		}
	case "pressure":
		r.Title = "evogp pressure — " + base
		b.pressureSections(&r)
	case "figures":
		r.Title = "evogp figures — " + base
	}
	if r.Subtitle == "" {
		r.Subtitle = fmt.Sprintf("%s output directory %s", kind, shown)
	}
	// Every figure not placed in a section yet.
	var rest []htmlreport.Block
	for _, f := range b.figs {
		if !b.used[f.Name] {
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		sec := htmlreport.Section{ID: "figures", Title: "Figures", Blocks: rest}
		// Figures read right after the summary.
		at := min(1, len(r.Sections))
		r.Sections = slices.Insert(r.Sections, at, sec)
	}
	if s, ok := b.provenanceSection(); ok {
		r.Sections = append(r.Sections, s)
	}
	return r, nil
}

func (b *reportBuilder) shownDir() string {
	if b.o.Dir != "" {
		return b.o.Dir
	}
	return b.dir
}

// figure returns the directory figure named name (and marks it placed).
func (b *reportBuilder) figure(name string) (htmlreport.Figure, bool) {
	for _, f := range b.figs {
		if f.Name == name {
			b.used[name] = true
			return f, true
		}
	}
	return htmlreport.Figure{}, false
}

// figureCaption describes a figure file by its name.
func figureCaption(name string) string {
	switch {
	case name == "ranking":
		return "How often each scheduler ranked 1st, 2nd, … on the objective (paper Fig. 4)"
	case name == "breakdown_mean":
		return "Objective and its terms per scheduler, mean over instances (paper Fig. 6)"
	case strings.HasPrefix(name, "breakdown_"):
		return "Objective and its terms per scheduler on one instance (paper Fig. 6)"
	case strings.HasPrefix(name, "queue_density"):
		return "Density of positive queuing times per user-priority class (paper Fig. 5)"
	case name == "jct_cdf":
		return "Empirical CDF of job completion times"
	case name == "convergence":
		return "GP convergence: best and median fitness per generation"
	case name == "convergence_sweep":
		return "Best fitness per generation of every sweep point"
	case name == "tradeoff":
		return "AvgJCT and MaxQT of the learned policy against ω (paper Fig. 8)"
	case name == reports.TradeoffFrontName:
		return "AvgJCT against MaxQT on the test set: each ω at the mean over its seeds, bars over the seeds' range, the baselines labelled"
	case name == "pressure":
		return "Objective under load pressure (paper Fig. 9a)"
	case name == "evo_op_time":
		return "EVO operation time (paper Fig. 12)"
	case name == "evo_rankings":
		return "EVO against MCT rankings (paper Fig. 11b)"
	}
	return name
}

// summaryTable is the per-scheduler summary as a sortable table.
func summaryTable(s reports.Summary) htmlreport.Table {
	cols := []htmlreport.Column{{Name: "scheduler"}, {Name: "n", Numeric: true, Title: "rows (instance, seed)"},
		{Name: "objective", Numeric: true, Title: "mean over instances"}, {Name: "± sd", Numeric: true},
		{Name: "normalised", Numeric: true, Title: "mean of objective ÷ objective of " + s.Reference},
		{Name: "cq_avg (h)", Numeric: true}, {Name: "cq_max (h)", Numeric: true}, {Name: "util", Numeric: true},
		{Name: "avg_jct (h)", Numeric: true}, {Name: "max_qt (h)", Numeric: true}, {Name: "makespan (h)", Numeric: true},
		{Name: "wins (fractional)", Numeric: true, Title: "instances with the lowest objective; a k-way tie gives each 1/k"},
		{Name: "mean rank", Numeric: true, Title: "mean mid-rank on the objective (1 = best)"},
		{Name: "Wilcoxon p", Numeric: true, Title: "two-sided paired signed-rank test against the best baseline " + s.BestBaseline},
		{Name: "n (test)", Numeric: true, Title: "non-zero paired differences of the test"},
		{Name: "better / tied / worse", Title: "instances where the objective is below / equal to / above the best baseline's"},
		{Name: "median ratio", Numeric: true, Title: "effect size: median over instances of objective ÷ the best baseline's"},
		{Name: "95 % CI", Title: "distribution-free 95 % confidence interval of the median ratio (order statistics)"}}
	deadlines := false
	for _, r := range s.Schedulers {
		deadlines = deadlines || r.TotalTardiness.Mean > 0 || r.DeadlineMisses.Mean > 0
	}
	if deadlines {
		cols = append(cols, htmlreport.Column{Name: "tardiness (h)", Numeric: true}, htmlreport.Column{Name: "deadline misses", Numeric: true})
	}
	caption := fmt.Sprintf("%d instances, %d ranked (every scheduler ran); cells are means over instances.", s.Instances, s.Ranked)
	if s.BestBaseline != "" {
		caption += fmt.Sprintf(" Best baseline %s, chosen %s.", s.BestBaseline, s.BestBaselineBasis)
	}
	for _, f := range s.Folds() {
		caption += " One row for two schedulers: " + s.FoldWhy(f) + "."
	}
	t := htmlreport.Table{ID: "summary-table", Caption: caption + " Click a header to sort.", Columns: cols}
	g := func(v float64) htmlreport.Cell { return htmlreport.Num("%.4g", v) }
	for _, r := range s.Schedulers {
		if r.SameAs != "" {
			continue // one row with the scheduler it equals (the caption says why)
		}
		p, n := htmlreport.Num("%.3g", math.NaN()), math.NaN()
		if r.Test.Method != "" {
			p, n = htmlreport.Num("%.3g", r.Test.P), float64(r.Test.N)
			if !r.Test.CanReject() {
				p = htmlreport.Str("n too small for a test")
			}
		}
		row := []htmlreport.Cell{htmlreport.Str(s.RowName(r.Scheduler)), htmlreport.Num("%.0f", float64(r.Instances)),
			g(r.Objective.Mean), htmlreport.Num("%.2g", r.Objective.SD), g(r.Normalized.Mean), g(r.CQAvg.Mean), g(r.CQMax.Mean),
			g(r.Util.Mean), g(r.AvgJCT.Mean), g(r.MaxQT.Mean), g(r.Makespan.Mean), g(r.Wins), g(r.MeanRank),
			p, htmlreport.Num("%.0f", n)}
		btw, ci, ratio := "–", "–", math.NaN()
		if r.Test.Method != "" {
			btw = fmt.Sprintf("%d / %d / %d", r.Paired.Better, r.Paired.Tied, r.Paired.Worse)
			ratio = r.Paired.MedianRatio
			if lo, hi := fmt.Sprintf("%.3g", r.Paired.RatioLo), fmt.Sprintf("%.3g", r.Paired.RatioHi); !math.IsNaN(r.Paired.RatioLo) && lo == hi {
				ci = "the single value " + lo
			} else if !math.IsNaN(r.Paired.RatioLo) {
				ci = lo + "–" + hi
			} else if !math.IsNaN(ratio) {
				ci = "too few instances"
			}
		}
		row = append(row, htmlreport.Str(btw), htmlreport.Num("%.3g", ratio), htmlreport.Str(ci))
		if deadlines {
			row = append(row, g(r.TotalTardiness.Mean), g(r.DeadlineMisses.Mean))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// evalSections: summary, formulas, instances.
func (b *reportBuilder) evalSections(r *htmlreport.Report) error {
	ref := b.fo.Reference
	if ref == "" {
		ref = reports.DefaultReference
	}
	s, err := reports.Summarize(b.t.Results, b.t.SummaryOptions(b.fo, ref))
	if err != nil {
		return err
	}
	r.Headline = reports.Headline(s)
	r.Subtitle = fmt.Sprintf("eval of %d schedulers on %d instances, in %s", len(s.Schedulers), s.Instances, b.shownDir())
	r.Sections = append(r.Sections, htmlreport.Section{ID: "summary", Title: "Summary", Blocks: []htmlreport.Block{summaryTable(s)}})
	var pols []runfile.SchedulerRecord
	if b.man != nil && b.man.Eval != nil {
		pols = b.man.Eval.Schedulers
	}
	var forms []htmlreport.Block
	for _, p := range pols {
		if p.Source != "" {
			forms = append(forms, formulaBlock(htmlreport.Anchor("formula-", p.Label), p.Label+" ("+p.Name+")", p.Source, ""))
		}
	}
	if len(forms) > 0 {
		r.Sections = append(r.Sections, htmlreport.Section{ID: "formulas", Title: "Formulas", Blocks: forms})
	}
	sec, err := b.instanceSection(s)
	if err != nil {
		return err
	}
	r.Sections = append(r.Sections, sec)
	return nil
}

// formulaBlock shows infix (parsed and printed again when it parses) and
// LaTeX source of a formula.
func formulaBlock(id, label, infix, note string) htmlreport.Formula {
	f := htmlreport.Formula{ID: id, Label: label, Infix: infix, Note: note}
	if t, err := expr.Parse(infix); err == nil {
		if tex, err := expr.Format(t, "latex"); err == nil {
			f.LaTeX = tex
		}
	}
	return f
}

// instanceSection is the per-instance drill-down of an eval: a table of
// instances with the winner and links, then one collapsed section per
// instance with its metrics and ranks, and its breakdown and queue-density
// figures where the report keeps them.
func (b *reportBuilder) instanceSection(s reports.Summary) (htmlreport.Section, error) {
	var insts []string
	byInst := map[string][]reports.ResultRow{}
	for _, r := range b.t.Results {
		if _, ok := byInst[r.Instance]; !ok {
			insts = append(insts, r.Instance)
		}
		byInst[r.Instance] = append(byInst[r.Instance], r)
	}
	scheds := make([]string, len(s.Schedulers))
	for i, st := range s.Schedulers {
		scheds[i] = st.Scheduler
	}
	figInst := b.fo.Instance
	if figInst == "" && len(insts) > 0 {
		figInst = insts[0]
	}
	withFigures := len(insts) <= b.instanceLimit()
	hasJobs := map[string]bool{}
	for _, j := range b.t.Jobs {
		hasJobs[j.Instance] = true
	}
	cols := []htmlreport.Column{{Name: "instance"}, {Name: "best scheduler"}}
	for _, n := range scheds {
		cols = append(cols, htmlreport.Column{Name: n, Numeric: true, Title: "objective of " + n + " (mean over seeds)"})
	}
	overview := htmlreport.Table{ID: "instances-table", Caption: "Objective per instance and scheduler (lower is better); the instance name opens its section.", Columns: cols}
	var details []htmlreport.Block
	for _, inst := range insts {
		rows := byInst[inst]
		obj, ranks := instanceRanks(rows, scheds)
		id := htmlreport.Anchor("instance-", inst)
		bestName := ""
		for k, n := range scheds {
			if ranks[k] == 1 {
				if bestName != "" {
					bestName += " = "
				}
				bestName += n
			}
		}
		row := []htmlreport.Cell{{Text: inst, Value: math.NaN(), Href: "#" + id}, htmlreport.Str(bestName)}
		for k := range scheds {
			row = append(row, htmlreport.Num("%.4g", obj[k]))
		}
		overview.Rows = append(overview.Rows, row)

		mt := htmlreport.Table{ID: id + "-metrics", Columns: []htmlreport.Column{{Name: "scheduler"}, {Name: "rank", Numeric: true, Title: "competition rank on the objective among the schedulers (1 = best)"},
			{Name: "objective", Numeric: true}, {Name: "cq_avg (h)", Numeric: true}, {Name: "cq_max (h)", Numeric: true}, {Name: "util", Numeric: true},
			{Name: "avg_jct (h)", Numeric: true}, {Name: "max_qt (h)", Numeric: true}, {Name: "makespan (h)", Numeric: true},
			{Name: "tardiness (h)", Numeric: true}, {Name: "deadline misses", Numeric: true}, {Name: "jobs", Numeric: true}}}
		for k, n := range scheds {
			m := meanRow(rows, n)
			if m == nil {
				continue
			}
			g := func(v float64) htmlreport.Cell { return htmlreport.Num("%.4g", v) }
			mt.Rows = append(mt.Rows, []htmlreport.Cell{htmlreport.Str(n), htmlreport.Num("%.0f", ranks[k]), g(m.Objective), g(m.CQAvg), g(m.CQMax), g(m.Util),
				g(m.AvgJCT), g(m.MaxQT), g(m.Makespan), g(m.TotalTardiness), g(float64(m.DeadlineMisses)), g(float64(m.Jobs))})
		}
		blocks := []htmlreport.Block{mt}
		if withFigures || inst == figInst {
			figs, err := b.instanceFigures(inst, hasJobs[inst], s.BestBaseline)
			if err != nil {
				return htmlreport.Section{}, err
			}
			blocks = append(blocks, figs...)
		} else {
			blocks = append(blocks, htmlreport.Paragraph{Text: fmt.Sprintf("Figures of this instance are left out: the eval has %d instances, more than the report's limit of %d (evogp report --report-instances N).", len(insts), b.instanceLimit())})
		}
		details = append(details, htmlreport.Details{ID: id, Summary: fmt.Sprintf("%s — best: %s", inst, bestName), Blocks: blocks})
	}
	blocks := append([]htmlreport.Block{overview}, details...)
	// Beyond the limit the whole section starts collapsed too.
	return htmlreport.Section{ID: "instances", Title: fmt.Sprintf("Instances (%d)", len(insts)), Blocks: blocks, Collapsible: !withFigures}, nil
}

// instanceFigures returns the breakdown and queue-density figures of one
// instance: the directory's own files when it has them, else rendered
// (the breakdown's error bars paired against best, the best baseline).
func (b *reportBuilder) instanceFigures(inst string, jobs bool, best string) ([]htmlreport.Block, error) {
	var out []htmlreport.Block
	mk := []func() (*reports.Figure, error){func() (*reports.Figure, error) {
		return reports.BreakdownPlotAgainst(b.t.Results, inst, b.t.Objective, best)
	}}
	if jobs {
		mk = append(mk, func() (*reports.Figure, error) { return reports.QueueDensityPlot(b.t.Jobs, inst) })
	}
	for _, m := range mk {
		f, err := m()
		if err != nil {
			return nil, err
		}
		if have, ok := b.figure(f.Name); ok {
			out = append(out, have)
			continue
		}
		svg, err := f.Render("svg")
		if err != nil {
			return nil, err
		}
		out = append(out, htmlreport.Figure{Name: f.Name, Caption: figureCaption(f.Name), SVG: svg})
	}
	return out, nil
}

// instanceRanks returns per scheduler of scheds its mean objective over
// the rows (NaN when it did not run) and its competition rank among the
// schedulers that ran (ties share the better rank; NaN when it did not
// run).
func instanceRanks(rows []reports.ResultRow, scheds []string) (obj, rank []float64) {
	obj = make([]float64, len(scheds))
	rank = make([]float64, len(scheds))
	for k, n := range scheds {
		obj[k] = math.NaN()
		if m := meanRow(rows, n); m != nil {
			obj[k] = m.Objective
		}
	}
	for k := range scheds {
		rank[k] = math.NaN()
		if math.IsNaN(obj[k]) {
			continue
		}
		r := 1.0
		for j := range scheds {
			if !math.IsNaN(obj[j]) && obj[j] < obj[k] {
				r++
			}
		}
		rank[k] = r
	}
	return obj, rank
}

// meanRow averages the rows of scheduler name (over seeds); nil if none.
func meanRow(rows []reports.ResultRow, name string) *reports.ResultRow {
	var m reports.ResultRow
	n := 0
	for _, r := range rows {
		if r.Scheduler != name {
			continue
		}
		n++
		m.Jobs += r.Jobs
		m.CQAvg += r.CQAvg
		m.CQMax += r.CQMax
		m.Util += r.Util
		m.Objective += r.Objective
		m.AvgJCT += r.AvgJCT
		m.MaxQT += r.MaxQT
		m.Makespan += r.Makespan
		m.TotalTardiness += r.TotalTardiness
		m.DeadlineMisses += r.DeadlineMisses
	}
	if n == 0 {
		return nil
	}
	f := float64(n)
	m.Scheduler = name
	m.Jobs /= int64(n)
	m.CQAvg /= f
	m.CQMax /= f
	m.Util /= f
	m.Objective /= f
	m.AvgJCT /= f
	m.MaxQT /= f
	m.Makespan /= f
	m.TotalTardiness /= f
	m.DeadlineMisses /= int64(n)
	return &m
}

// learnSections: the learned formula, its scores, the hall of fame.
func (b *reportBuilder) learnSections(r *htmlreport.Report) error {
	best := b.best
	if best == nil {
		r.Headline = "The run has not finished: no best.json yet (resume it with evogp learn --resume)."
		return nil
	}
	r.Subtitle = fmt.Sprintf("learning run (config %s, seed %d, objective %s, %d generations) in %s", best.Config, best.Seed, best.Objective, best.Generations, b.shownDir())
	r.Headline = best.Headline()
	if h, ok := testHeadline(best.Test); ok {
		r.Headline += "\n" + h
	}
	r.Warnings = append(r.Warnings, best.Warnings...)
	blocks, err := learnedBlocks(b.dir, best, "formula")
	if err != nil {
		return err
	}
	r.Sections = append(r.Sections, htmlreport.Section{ID: "summary", Title: "Learned policy", Blocks: blocks})
	if sec, ok := frontSection(best.Front); ok {
		r.Sections = append(r.Sections, sec)
	}
	hall, err := hallTable(filepath.Join(b.dir, runfile.HallFile))
	if err != nil {
		return err
	}
	if hall != nil {
		r.Sections = append(r.Sections, htmlreport.Section{ID: "hall-of-fame", Title: "Hall of fame", Collapsible: true, Blocks: []htmlreport.Block{*hall}})
	}
	return nil
}

// frontSection lists the formulas of a front (gp.selection: nsga2), each
// under the anchor the front figure's points link to
// (htmlreport.Anchor("formula-", label) = figure.FormulaAnchor), with its validation
// objectives.
func frontSection(f *runfile.Front) (htmlreport.Section, bool) {
	if f == nil || len(f.Members) == 0 {
		return htmlreport.Section{}, false
	}
	var blocks []htmlreport.Block
	for i, m := range f.Members {
		var objs []string
		for k, v := range m.Validation {
			name := fmt.Sprintf("objective %d", k+1)
			if k < len(f.Objectives) {
				name = f.Objectives[k]
			}
			objs = append(objs, fmt.Sprintf("%s %.4g", name, v))
		}
		note := "Validation: " + strings.Join(objs, ", ") + "."
		if i == f.Pick {
			note += " The run's formula (it minimises the config's weighted sum)."
		}
		if m.ReducedInfix != "" {
			// The member's reduced pair first (the same schedule on every
			// training and validation instance), the evolved one in the note.
			label := m.Reduced
			if m.ReducedRoutingInfix == "" {
				label = "f = " + label
			}
			b := formulaBlock(htmlreport.Anchor("formula-", m.Label), m.Label+": "+label, m.ReducedInfix, "")
			if t, err := expr.Parse(m.ReducedInfix); err == nil {
				if tex, err := expr.FormatOn(t, "latex", expr.DefaultDomain()); err == nil {
					b.LaTeX = tex
				}
			}
			b.Note = fmt.Sprintf("Reduced from the evolved trees (%d → %d nodes): the same schedule, job for job, on every training and validation instance (checked by simulation). As evolved: %s. ", m.Size, m.ReducedSize, m.Formula()) + note
			blocks = append(blocks, b)
			continue
		}
		blocks = append(blocks, formulaBlock(htmlreport.Anchor("formula-", m.Label), m.Label+": f = "+m.Simplified, m.Simplified, note))
	}
	return htmlreport.Section{ID: "front", Title: fmt.Sprintf("Front of formulas (%d members)", len(f.Members)), Blocks: blocks}, true
}

// learnedBlocks shows a run's formula, its validation and test tables.
func learnedBlocks(dir string, best *runfile.Best, id string) ([]htmlreport.Block, error) {
	note := fmt.Sprintf("As evolved: %s (size %d, depth %d). On the simulator's inputs (d > 0, q ≥ 0, u ≥ 1, g ≥ 1): %s. Scheduler: %s; smaller values run first.",
		best.Infix, best.Size, best.Depth, best.SimplifiedDomain, best.Candidate)
	f := htmlreport.Formula{ID: id, Label: "f = " + best.Simplified, Infix: best.Simplified, LaTeX: best.LaTeX, Note: note}
	if red := best.Reduced; red != nil && red.Readable != "" {
		// The reduced tree first (the same schedule on every training and
		// validation instance); the evolved one in the note.
		_, label := best.DisplayFormulas()
		f = htmlreport.Formula{ID: id, Label: "f = " + label, Infix: red.Infix, LaTeX: red.LaTeX,
			Note: fmt.Sprintf("Reduced from the evolved tree (%d → %d nodes): the same schedule, job for job, on all %d training and validation instances (checked by simulation); / is a division whose divisor is never 0 on the simulator's inputs. ",
				red.EvolvedSize, red.Size, red.CheckedOn.Instances) + note}
	}
	blocks := []htmlreport.Block{f}
	if best.RoutingSimplified != "" { // a two-tree run: its routing tree R too
		rb := routingBlock(id+"-routing", best.RoutingSimplified, best.RoutingInfix, best.RoutingTerminals, best.Scope)
		if red := best.Reduced; red != nil && red.RoutingReadable != "" {
			label, _ := best.DisplayFormulas()
			rb.Label, rb.Infix, rb.LaTeX = "R = "+label, red.RoutingInfix, red.RoutingLaTeX
			rb.Note = fmt.Sprintf("Reduced from the evolved tree (%d → %d nodes), the same schedule on every training and validation instance. ", red.EvolvedRoutingSize, red.RoutingSize) + rb.Note
		}
		blocks = append([]htmlreport.Block{rb}, blocks...)
	}
	if len(best.ValidationBaselines) > 0 {
		t := htmlreport.Table{ID: id + "-validation", Caption: fmt.Sprintf("Validation score on %d instances: mean objective ÷ SRSF's (lower is better).", best.ValidationInstances),
			Columns: []htmlreport.Column{{Name: "scheduler"}, {Name: "validation score", Numeric: true}}}
		t.Rows = append(t.Rows, []htmlreport.Cell{htmlreport.Str("learned"), htmlreport.Num("%.4g", best.Validation)})
		for _, v := range best.ValidationBaselines {
			t.Rows = append(t.Rows, []htmlreport.Cell{htmlreport.Str(v.Name), htmlreport.Num("%.4g", v.Score)})
		}
		blocks = append(blocks, t)
	}
	if tt := best.Test; tt != nil {
		t := htmlreport.Table{ID: id + "-test", Caption: fmt.Sprintf("Held-out test (%s, %d instances) against the best baseline %s, chosen %s; wins split ties.", tt.Split, tt.Instances, tt.BestBaseline, tt.Basis()),
			Columns: []htmlreport.Column{{Name: "scheduler"}, {Name: "objective", Numeric: true}, {Name: "normalised", Numeric: true},
				{Name: "wins", Numeric: true}, {Name: "mean rank", Numeric: true}, {Name: "better", Numeric: true}, {Name: "tied", Numeric: true},
				{Name: "worse", Numeric: true}, {Name: "Wilcoxon p", Numeric: true}}}
		for _, row := range tt.Rows {
			p := math.NaN()
			if row.WilcoxonP != nil {
				p = *row.WilcoxonP
			}
			t.Rows = append(t.Rows, []htmlreport.Cell{htmlreport.Str(row.Scheduler), htmlreport.Num("%.4g", row.Objective), htmlreport.Num("%.4g", row.Normalised),
				htmlreport.Num("%.3g", row.Wins), htmlreport.Num("%.3g", row.MeanRank), htmlreport.Num("%.0f", float64(row.Better)),
				htmlreport.Num("%.0f", float64(row.Ties)), htmlreport.Num("%.0f", float64(row.Worse)), htmlreport.Num("%.3g", p)})
		}
		blocks = append(blocks, t)
	}
	return blocks, nil
}

// hallTable reads hall_of_fame.csv (nil when absent).
func hallTable(path string) (*htmlreport.Table, error) {
	hall, err := runfile.ReadHall(path)
	if err != nil || hall == nil {
		return nil, err
	}
	recs := append([][]string{hall.Columns()}, hall.Rows...)
	t := &htmlreport.Table{ID: "hall-table", Caption: "The best distinct formulas of the run (training score: mean normalised objective; validation likewise)."}
	numeric := map[string]bool{"rank": true, "train_score": true, "generation": true, "validation_score": true, "size": true, "depth": true}
	for _, h := range recs[0] {
		t.Columns = append(t.Columns, htmlreport.Column{Name: h, Numeric: numeric[h]})
	}
	for _, rec := range recs[1:] {
		var row []htmlreport.Cell
		for i, v := range rec {
			if i < len(t.Columns) && t.Columns[i].Numeric {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					x = math.NaN()
				}
				row = append(row, htmlreport.Cell{Text: v, Value: x})
				continue
			}
			row = append(row, htmlreport.Str(v))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// sweepSections: the points table with links, then a section per point.
func (b *reportBuilder) sweepSections(r *htmlreport.Report) error {
	rows := b.t.Sweep
	r.Subtitle = fmt.Sprintf("sweep of %d points in %s", len(rows), b.shownDir())
	table := htmlreport.Table{ID: "sweep-table", Caption: "One row per sweep point (test-set means); the point name opens its section.",
		Columns: []htmlreport.Column{{Name: "point"}, {Name: "overrides"}, {Name: "ω", Numeric: true}, {Name: "seed", Numeric: true},
			{Name: "objective", Numeric: true}, {Name: "AvgJCT (h)", Numeric: true}, {Name: "MaxQT (h)", Numeric: true},
			{Name: "formula"}, {Name: "warnings"}}}
	var points []htmlreport.Block
	for _, row := range rows {
		// Overrides name a point with its seed; Point leaves the seed out,
		// so the seeds of one point would share an anchor.
		name := row.Overrides
		if name == "" {
			name = row.Point
		}
		id := htmlreport.Anchor("point-", name)
		pdir := b.env.PointDir(b.dir, row)
		var best *runfile.Best
		if data, err := os.ReadFile(filepath.Join(pdir, runfile.BestFile)); err == nil {
			if best, err = runfile.DecodeBest(filepath.Join(pdir, runfile.BestFile), data); err != nil {
				return err
			}
		}
		formula, warns := "–", ""
		if best != nil {
			route, rank := best.DisplayFormulas()
			formula, warns = rank, strings.Join(best.Warnings, "; ")
			if route != "" {
				formula = "R = " + route + " ; f = " + rank
			}
		}
		table.Rows = append(table.Rows, []htmlreport.Cell{{Text: row.Point, Value: math.NaN(), Href: "#" + id}, htmlreport.Str(row.Overrides),
			htmlreport.Num("%g", row.Omega), htmlreport.Num("%.0f", float64(row.Seed)), htmlreport.Num("%.4g", row.Objective),
			htmlreport.Num("%.4g", row.AvgJCT), htmlreport.Num("%.4g", row.MaxQT), htmlreport.Str(formula), htmlreport.Str(warns)})
		var blocks []htmlreport.Block
		blocks = append(blocks, htmlreport.Paragraph{Text: "Directory: " + pdir})
		if best == nil {
			blocks = append(blocks, htmlreport.Paragraph{Text: "No best.json: the point has not finished."})
		} else {
			blocks = append(blocks, htmlreport.Paragraph{Text: best.Headline()})
			for _, w := range best.Warnings {
				blocks = append(blocks, htmlreport.Paragraph{Text: "Warning: " + w})
				r.Warnings = append(r.Warnings, row.Point+": "+w)
			}
			lb, err := learnedBlocks(pdir, best, id+"-formula")
			if err != nil {
				return err
			}
			blocks = append(blocks, lb...)
		}
		if svg, err := os.ReadFile(filepath.Join(pdir, runfile.PlotName+".svg")); err == nil {
			blocks = append(blocks, htmlreport.Figure{Name: id + "-convergence", Caption: "GP convergence of point " + row.Point, SVG: svg})
		}
		points = append(points, htmlreport.Details{ID: id, Summary: fmt.Sprintf("%s — %s", name, formula), Blocks: blocks})
	}
	summary := []htmlreport.Block{table}
	if agg := reports.SeedAggregates(rows); agg != nil {
		seeds := htmlreport.Table{ID: "seeds-table", Caption: "Across seeds: each point's test-set means averaged over the seeds it ran under (mean and sd over n seeds).",
			Columns: []htmlreport.Column{{Name: "point"}, {Name: "ω", Numeric: true}, {Name: "n", Numeric: true, Title: "seeds"},
				{Name: "objective", Numeric: true}, {Name: "objective sd", Numeric: true}, {Name: "AvgJCT (h)", Numeric: true}, {Name: "AvgJCT sd", Numeric: true},
				{Name: "MaxQT (h)", Numeric: true}, {Name: "MaxQT sd", Numeric: true}}}
		for _, a := range agg {
			seeds.Rows = append(seeds.Rows, []htmlreport.Cell{htmlreport.Str(a.Point), htmlreport.Num("%g", a.Omega), htmlreport.Num("%.0f", float64(a.N)),
				htmlreport.Num("%.4g", a.Objective.Mean), htmlreport.Num("%.2g", a.Objective.SD), htmlreport.Num("%.4g", a.AvgJCT.Mean),
				htmlreport.Num("%.2g", a.AvgJCT.SD), htmlreport.Num("%.4g", a.MaxQT.Mean), htmlreport.Num("%.2g", a.MaxQT.SD)})
		}
		summary = append(summary, seeds)
	}
	r.Sections = append(r.Sections, htmlreport.Section{ID: "summary", Title: "Sweep points", Blocks: summary},
		htmlreport.Section{ID: "points", Title: "Points", Blocks: points})
	return nil
}

// pressureSections: mean objective per scheduler and interval.
func (b *reportBuilder) pressureSections(r *htmlreport.Report) {
	var scheds []string
	var ivs []float64
	sum := map[string]map[float64][]float64{}
	for _, p := range b.t.Pressure {
		if _, ok := sum[p.Scheduler]; !ok {
			scheds = append(scheds, p.Scheduler)
			sum[p.Scheduler] = map[float64][]float64{}
		}
		if !slices.Contains(ivs, p.Interval) {
			ivs = append(ivs, p.Interval)
		}
		sum[p.Scheduler][p.Interval] = append(sum[p.Scheduler][p.Interval], p.Objective)
	}
	slices.Sort(ivs)
	cols := []htmlreport.Column{{Name: "scheduler"}}
	for _, iv := range ivs {
		cols = append(cols, htmlreport.Column{Name: fmt.Sprintf("Δ = %g s", iv), Numeric: true, Title: "mean objective over seeds at inter-arrival interval Δ"})
	}
	t := htmlreport.Table{ID: "pressure-table", Caption: "Mean objective over seeds per scheduler and inter-arrival interval Δ (smaller Δ = heavier load).", Columns: cols}
	for _, s := range scheds {
		row := []htmlreport.Cell{htmlreport.Str(s)}
		for _, iv := range ivs {
			xs := sum[s][iv]
			m := math.NaN()
			if len(xs) > 0 {
				m = 0
				for _, x := range xs {
					m += x
				}
				m /= float64(len(xs))
			}
			row = append(row, htmlreport.Num("%.4g", m))
		}
		t.Rows = append(t.Rows, row)
	}
	r.Subtitle = fmt.Sprintf("load pressure of %d schedulers over %d intervals, in %s", len(scheds), len(ivs), b.shownDir())
	r.Sections = append(r.Sections, htmlreport.Section{ID: "summary", Title: "Summary", Blocks: []htmlreport.Block{t}})
}

// provenanceSection lists who made the directory, how, and its config.
func (b *reportBuilder) provenanceSection() (htmlreport.Section, bool) {
	var blocks []htmlreport.Block
	for i, p := range b.prov {
		rev := p.Revision
		if rev == "" {
			rev = "(not recorded by the build)"
		}
		if p.Modified {
			rev += " (modified working tree)"
		}
		if p.RevisionFrom == "git" {
			rev += " (from git: the binary has no VCS stamp)"
		}
		pairs := [][2]string{{"version", p.Version}, {"commit", rev}, {"Go", p.GoVersion},
			{"started", p.Start.Format("2006-01-02 15:04:05 UTC")}}
		if !p.End.IsZero() {
			pairs = append(pairs, [2]string{"ended", p.End.Format("2006-01-02 15:04:05 UTC")},
				[2]string{"duration", time.Duration(p.DurationSeconds * float64(time.Second)).Round(time.Millisecond).String()})
		}
		pairs = append(pairs, [2]string{"host", p.Host})
		if p.GOMAXPROCS > 0 {
			pairs = append(pairs, [2]string{"GOMAXPROCS / CPUs", fmt.Sprintf("%d / %d", p.GOMAXPROCS, p.NumCPU)})
		}
		if p.CPUModel != "" {
			pairs = append(pairs, [2]string{"CPU", p.CPUModel})
		}
		if p.ConfigSHA256 != "" {
			pairs = append(pairs, [2]string{"config SHA-256", p.ConfigSHA256})
		}
		for _, in := range p.Inputs {
			pairs = append(pairs, [2]string{"input " + in.Path, "SHA-256 " + in.SHA256})
		}
		blocks = append(blocks, htmlreport.Pre{Title: fmt.Sprintf("Invocation %d", i+1), Text: commandLine(p.Command)},
			htmlreport.KeyValues{Pairs: pairs})
	}
	if b.rawMn != nil {
		blocks = append(blocks, htmlreport.Pre{Title: runfile.ManifestFile + " (the run's manifest)", Text: strings.TrimSpace(string(b.rawMn))})
	}
	if b.cfg != "" {
		blocks = append(blocks, htmlreport.Pre{Title: runfile.ConfigFile + " (the resolved config)", Text: strings.TrimSpace(b.cfg)})
	}
	if len(blocks) == 0 {
		return htmlreport.Section{}, false
	}
	return htmlreport.Section{ID: "provenance", Title: "Provenance", Blocks: blocks}, true
}

// commandLine joins args as a shell command line, quoting what needs it.
func commandLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			out[i] = a
			continue
		}
		out[i] = cliargs.ShellQuote(a)
	}
	return strings.Join(out, " ")
}

// testHeadline is the summary sentence (reports.HeadlineOf) of a learn
// run's held-out test table: the learned formula against the run's best
// baseline with its ratio, effect size and CI, better/tied/worse counts
// and the Wilcoxon p-value with n, from the per-instance objectives.
func testHeadline(t *runfile.TestTable) (string, bool) {
	if t == nil || t.BestBaseline == "" || t.Row(runfile.RowLearned) == nil || t.Row(t.BestBaseline) == nil {
		return "", false
	}
	var rows []reports.ResultRow
	for _, name := range []string{runfile.RowLearned, t.BestBaseline} {
		for i, o := range t.Row(name).Objectives {
			rows = append(rows, reports.ResultRow{Instance: strconv.Itoa(i), Scheduler: name, Objective: o})
		}
	}
	s, err := reports.Summarize(rows, reports.SummaryOptions{Reference: t.BestBaseline, Baselines: []string{t.BestBaseline},
		BestBaseline: t.BestBaseline, BestBaselineBasis: "by the run, " + t.Basis()})
	if err != nil {
		return "", false
	}
	h := reports.HeadlineOf(s, runfile.RowLearned)
	return "Held-out test (" + t.Split + "): " + h, true
}

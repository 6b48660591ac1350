package runreport

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/reports"
)

// Tables are the result tables of one output directory.
type Tables struct {
	Results     []reports.ResultRow
	Jobs        []reports.JobRow
	Generations []reports.GenerationRow
	Convergence reports.ConvergenceRef // α, validation curve and best baseline of a learn run (convergenceRef)
	Sweep       []reports.SweepRow
	TestSets    []string                 // per Sweep row, the test set its point was scored on (sweepTestSets)
	Baselines   []reports.ResultRow      // baselines.parquet of a sweep
	Points      []reports.RunGenerations // points/*/generations.parquet of a sweep
	Pressure    []reports.PressureRow
	Ops         []reports.OpsRow   // an EVO operation log (ops.parquet)
	EVOPairs    []reports.EVOPair  // EVO schedulers and their MCT counterparts in Results
	Fronts      []reports.FrontSet // fronts whose members are schedulers of Results
	// BaselineNames are the named baselines among which the summary of
	// Results picks its best baseline (policies.Baselines, which the
	// command layer passes: the report does not import the registry).
	BaselineNames []string
	// Objective is the objective kind the results were scored under
	// ("multi", "single", "deadline"; "" = multi): the breakdown draws its
	// terms.
	Objective string
}

// FigureOptions choose what Tables.Render draws.
type FigureOptions struct {
	Formats   []string
	Instance  string // per-instance figures; "" = first instance of the table
	Reference string // normalising scheduler of the summary
	// RequireReference makes a Reference that is not a scheduler of the
	// results an error (the user named it); otherwise such a reference
	// only leaves the normalised column empty (the default was absent).
	RequireReference bool
	// ReportInstances is the largest number of instances whose sections
	// in report.html carry their own figures (0 = DefaultReportInstances).
	ReportInstances int `json:",omitempty"`
	// BestBaseline, if set, is the summary's best baseline, chosen on
	// other data as BestBaselineBasis says (reports.SummaryOptions);
	// empty: chosen on the results themselves, and the summary says so.
	BestBaseline      string `json:",omitempty"`
	BestBaselineBasis string `json:",omitempty"`
}

// SummaryOptions are the reports.SummaryOptions of t's results under
// figure options o.
func (t Tables) SummaryOptions(o FigureOptions, reference string) reports.SummaryOptions {
	return reports.SummaryOptions{Reference: reference, Baselines: t.BaselineNames, BestBaseline: o.BestBaseline, BestBaselineBasis: o.BestBaselineBasis}
}

// File is one rendered output file: its name and bytes.
type File struct {
	Name string
	Data []byte
}

// Files are rendered output files.
type Files []File

// Names lists the files' names in order.
func (r Files) Names() []string {
	out := make([]string, len(r))
	for i, f := range r {
		out[i] = f.Name
	}
	return out
}

// Write writes every file into dir, each atomically.
func (r Files) Write(dir string) error {
	for _, f := range r {
		if err := atomicio.WriteBytes(filepath.Join(dir, f.Name), f.Data); err != nil {
			return err
		}
	}
	return nil
}

// CheckReference fails when o requires a reference scheduler that the
// results do not have.
func CheckReference(results []reports.ResultRow, o FigureOptions) error {
	if !o.RequireReference || len(results) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, r := range results {
		have[r.Scheduler] = true
	}
	if have[o.Reference] {
		return nil
	}
	names := make([]string, 0, len(have))
	for n := range have {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Errorf("reference %q is not one of the schedulers (%s)", o.Reference, strings.Join(names, ", "))
}

// Render computes the summary and every figure the tables allow, in
// memory, so that nothing is written when any of them fails.
func (t Tables) Render(o FigureOptions) (Files, error) {
	if err := CheckReference(t.Results, o); err != nil {
		return nil, err
	}
	var out Files
	addFig := func(f *reports.Figure, err error) error {
		if err != nil {
			return err
		}
		for _, format := range o.Formats {
			b, err := f.Render(format)
			if err != nil {
				return err
			}
			out = append(out, File{f.Name + "." + format, b})
		}
		return nil
	}
	if len(t.Results) > 0 {
		s, err := reports.Summarize(t.Results, t.SummaryOptions(o, o.Reference))
		if err != nil {
			return nil, err
		}
		var md, csv bytes.Buffer
		if err := reports.WriteSummaryMarkdown(&md, s); err != nil {
			return nil, err
		}
		if err := reports.WriteSummaryCSV(&csv, s); err != nil {
			return nil, err
		}
		out = append(out, File{"summary.md", md.Bytes()}, File{"summary.csv", csv.Bytes()})
		if s.Ranked > 0 {
			if err := addFig(reports.RankingPlot(t.Results)); err != nil {
				return nil, err
			}
		}
		if err := addFig(reports.BreakdownPlotAgainst(t.Results, "", t.Objective, s.BestBaseline)); err != nil {
			return nil, err
		}
		inst := o.Instance
		if inst == "" {
			inst = t.Results[0].Instance
		}
		if err := addFig(reports.BreakdownPlotAgainst(t.Results, inst, t.Objective, s.BestBaseline)); err != nil {
			return nil, err
		}
	}
	if len(t.Results) > 0 && len(t.EVOPairs) > 0 {
		if err := addFig(reports.EVORankingPlot(t.Results, t.EVOPairs)); err != nil {
			return nil, err
		}
	}
	if len(t.Results) > 0 && len(t.Fronts) > 0 {
		if err := t.renderFronts(addFig); err != nil {
			return nil, err
		}
	}
	if len(t.Ops) > 0 {
		if err := addFig(reports.OpsTimePlot(t.Ops)); err != nil {
			return nil, err
		}
	}
	if len(t.Jobs) > 0 {
		inst := o.Instance
		if inst == "" {
			inst = t.Jobs[0].Instance
			if len(t.Results) > 0 {
				inst = t.Results[0].Instance
			}
		}
		if err := addFig(reports.QueueDensityPlot(t.Jobs, inst)); err != nil {
			return nil, err
		}
		if err := addFig(reports.JCTCDFPlot(t.Jobs)); err != nil {
			return nil, err
		}
	}
	if len(t.Generations) > 0 {
		if err := addFig(reports.ConvergencePlot(t.Generations, t.Convergence)); err != nil {
			return nil, err
		}
	}
	if len(t.Sweep) > 0 {
		base := t.Baselines
		if base == nil {
			base = t.Results
		}
		if err := addFig(reports.TradeoffPlotFor(t.Sweep, t.TestSets, base)); err != nil {
			return nil, err
		}
		// The same sweep as one figure of AvgJCT against MaxQT (evogp
		// figure tradeoff draws it with the formula table).
		if err := addFig(sweepFront(t.Sweep, base)); err != nil {
			return nil, err
		}
	}
	if len(t.Points) > 0 {
		if err := addFig(reports.ConvergenceOverlayPlot(t.Points)); err != nil {
			return nil, err
		}
	}
	if len(t.Pressure) > 0 {
		if err := addFig(reports.PressurePlot(t.Pressure)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// renderFronts draws the test-set trade-off of every front in t.
func (t Tables) renderFronts(add func(*reports.Figure, error) error) error {
	for i, set := range t.Fronts {
		others := append(append([]reports.FrontSet(nil), t.Fronts[:i]...), t.Fronts[i+1:]...)
		if err := add(reports.FrontTestPlot(t.Results, set, others)); err != nil {
			return err
		}
	}
	return nil
}

// sweepFront is reports.TradeoffFrontPlot of a sweep's rows and its
// baselines, saying so when the seeds ran on several test sets.
func sweepFront(rows []reports.SweepRow, base []reports.ResultRow) (*reports.Figure, error) {
	omegas, err := reports.OmegaPoints(rows)
	if err != nil {
		return nil, err
	}
	seeds := map[int64]bool{}
	for _, r := range base {
		seeds[r.Seed] = true
	}
	var notes []string
	if len(seeds) > 1 {
		notes = append(notes, fmt.Sprintf("the seeds ran on %d test sets (seed sets the data too); each baseline is its mean over the same %d", len(seeds), len(seeds)))
	}
	return reports.TradeoffFrontPlot(omegas, reports.BaselinePoints(base), nil, notes...)
}

package runfile

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/internal/tablefile"
)

// Front is the outcome of a multi-objective run (best.json "front").
type Front struct {
	Objectives []string `json:"objectives"`
	// Pooled: each simulated objective is the ratio of raw sums to SRSF's
	// over the instances (gp.fitness: pooled), not the mean of the
	// per-instance ratios (absent, false, in older files and by default).
	Pooled bool `json:"pooled,omitempty"`
	// Weights are the config's ω as weights over Objectives; Pick is the
	// index in Members of the member minimising their weighted sum of
	// validation objectives (the run's formula).
	Weights []float64     `json:"weights"`
	Pick    int           `json:"pick"`
	Members []FrontMember `json:"members"`
	// Reference and Hypervolume: on the validation set, in the
	// normalised objectives.
	Reference   []float64 `json:"reference"`
	Hypervolume float64   `json:"validation_hypervolume"`
	// Baselines are the named baselines' validation objectives (SRSF
	// scores 1 on each; size is 0, no formula) and Archive the number of
	// candidates scored on validation: the archive's and, of them,
	// Retired from the run's history — the pool of entries that left the
	// archive, the individuals ever of rank 0 and the final population's
	// first two fronts (learn/front_archive.go, learn/front_history.go;
	// absent in files written before the pool).
	Baselines []FrontBaseline `json:"baselines"`
	Archive   int             `json:"archive"`
	Retired   int             `json:"retired,omitempty"`
	// Seeds of Archive are gp.seed_formulas that neither the archive nor
	// the pool held (learn/front_seeds.go; absent in older files).
	Seeds    int      `json:"seeds,omitempty"`
	Warnings []string `json:"warnings"`
	// Omega is the ω table on the test split (learn/front_omega.go).
	Omega *FrontOmega `json:"omega,omitempty"`
}

// FrontMember is one formula of the front: its ranking tree and, with
// gp.learn: [routing, ranking], its routing tree (else the Routing fields
// are omitted).
type FrontMember struct {
	Label             string      `json:"label"` // front-1, front-2, … in front order
	Tree              *expr.Tree  `json:"tree"`
	Infix             string      `json:"infix"`
	Simplified        string      `json:"simplified"`
	Routing           RoutingTree `json:"routing_tree,omitzero"`
	RoutingInfix      string      `json:"routing_infix,omitempty"`
	RoutingSimplified string      `json:"routing_simplified,omitempty"`
	Size              int         `json:"size"` // nodes of the simplified tree(s)
	Hash              string      `json:"hash"` // of the individual (both trees)
	// Reduced is the member's reduced pair as printed ("R = … ; f = …"
	// with a routing tree): the same schedule on every training and
	// validation instance (learn/reduce.go, learn/front_reduce.go); empty in a
	// best.json written before members were reduced. ReducedInfix and
	// ReducedRoutingInfix are the reduced trees' infix (what export
	// --omega prints), ReducedSize their total number of nodes.
	Reduced             string `json:"reduced,omitempty"`
	ReducedInfix        string `json:"reduced_infix,omitempty"`
	ReducedRoutingInfix string `json:"reduced_routing_infix,omitempty"`
	ReducedSize         int    `json:"reduced_size,omitempty"`
	// Validation are the mean normalised validation objectives (size as
	// is) and Score the config's scalar validation score.
	Validation []float64 `json:"validation"`
	Score      float64   `json:"score"`
	// OmegaLo..OmegaHi is the ω interval on which the member minimises
	// ω·o1 + (1−ω)·o2 (two objectives only; null if it never does).
	OmegaLo *float64 `json:"omega_lo"`
	OmegaHi *float64 `json:"omega_hi"`
	// Dominates lists the baselines whose validation objectives (size
	// left out) the member dominates.
	Dominates []string `json:"dominates"`
}

// FrontBaseline is a baseline's validation objectives.
type FrontBaseline struct {
	Name       string    `json:"name"`
	Validation []float64 `json:"validation"`
}

// PickOmega is the index of the member minimising ω·o1 + (1−ω)·o2 of the
// validation objectives of a two-objective front.
func (f *Front) PickOmega(omega float64) (int, error) {
	if len(f.Objectives) != 2 {
		return 0, fmt.Errorf("the front has %d objectives (%s); ω picks among two", len(f.Objectives), strings.Join(f.Objectives, ", "))
	}
	if !(omega >= 0 && omega <= 1) {
		return 0, fmt.Errorf("ω = %v: must be in [0, 1]", omega)
	}
	pts := make([][]float64, len(f.Members))
	for i, m := range f.Members {
		pts[i] = m.Validation
	}
	return pareto.PickOmega(pts, omega), nil
}

// Formula is the member's individual as evolved: its ranking formula, or
// "R = … ; f = …" with a routing tree.
func (m FrontMember) Formula() string {
	if m.RoutingInfix == "" {
		return m.Infix
	}
	return "R = " + m.RoutingInfix + " ; f = " + m.Infix
}

// SimplifiedFormula is the member's reduced pair when it has one (every
// member of a run that reduces them), else Formula of the simplified trees.
func (m FrontMember) SimplifiedFormula() string {
	if m.Reduced != "" {
		return m.Reduced
	}
	if m.RoutingSimplified == "" {
		return m.Simplified
	}
	return "R = " + m.RoutingSimplified + " ; f = " + m.Simplified
}

// FrontOmega is the ω table of a front (internal/pareto.OmegaTable): for
// each ω of pareto.OmegaGrid, the member the weights (ω, 1 − ω[, 0])
// pick on validation and the baseline (SRSF included) they pick on
// validation, both scored on the test split. Note says why there is no
// table (no test split, or size weighted by ω).
type FrontOmega struct {
	Test      string            `json:"test"`
	Selection string            `json:"selection"`
	Rows      []pareto.OmegaRow `json:"rows"`
	Note      string            `json:"note,omitempty"`
}

// WriteOmega prints the front's ω table (or why there is none); nothing
// for a front without one (a best.json of an older run).
func (f *Front) WriteOmega(w io.Writer) error {
	if f.Omega == nil {
		return nil
	}
	if f.Omega.Note != "" {
		_, err := fmt.Fprintf(w, "ω table: %s\n", f.Omega.Note)
		return err
	}
	return pareto.WriteOmegaTable(w, f.Omega.Rows, f.Objectives, f.Omega.Test, f.Omega.Selection)
}

// WriteText prints the front as a table: each member's validation
// objectives (÷ SRSF's; size in nodes), the ω interval it wins, the
// baselines it dominates and its simplified formula; then the
// hypervolume, the baselines' objectives and any warning.
func (f *Front) WriteText(w io.Writer) error {
	seeds := ""
	if f.Seeds > 0 {
		seeds = fmt.Sprintf(", %d seed formulas", f.Seeds)
	}
	norm := "objectives ÷ SRSF's"
	if f.Pooled {
		norm = "objectives: sum over instances ÷ SRSF's sum"
	}
	fmt.Fprintf(w, "front of %d formulas (validation, %s; %d candidates scored: %d in the archive, %d from the run's history%s), hypervolume %.6g (reference %s)\n",
		len(f.Members), norm, f.Archive, f.Archive-f.Retired-f.Seeds, f.Retired, seeds, f.Hypervolume, vec(f.Reference))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"member"}
	head = append(head, f.Objectives...)
	head = append(head, "ω wins", "dominates", "formula")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for i, m := range f.Members {
		row := []string{m.Label}
		if i == f.Pick {
			row[0] += " *"
		}
		for k, v := range m.Validation {
			if f.Objectives[k] == "size" {
				row = append(row, fmt.Sprintf("%d", int(v)))
			} else {
				row = append(row, fmt.Sprintf("%.4f", v))
			}
		}
		om := "—"
		if m.OmegaLo != nil {
			om = fmt.Sprintf("%.3f–%.3f", *m.OmegaLo, *m.OmegaHi)
		}
		dom := strings.Join(m.Dominates, ",")
		if dom == "" {
			dom = "—"
		}
		row = append(row, om, dom, m.SimplifiedFormula())
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	for _, b := range f.Baselines {
		row := []string{b.Name}
		for k, v := range b.Validation {
			if f.Objectives[k] == "size" {
				row = append(row, "—")
			} else {
				row = append(row, fmt.Sprintf("%.4f", v))
			}
		}
		row = append(row, "", "", "(baseline)")
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "* the member for the config's weights %s (the run's formula; evogp export RUN --omega W picks another)\n", vec(f.Weights))
	for _, warn := range f.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", warn)
	}
	return nil
}

func vec(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%.4g", x)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// FrontRow is a row of front.parquet: one member of the front, its
// validation objectives (objective_1..3, named in objectives) and ω
// interval, whether it is the run's pick, the baselines it dominates.
// (The struct is unexported because parquet names the file's schema after
// it: "frontRow", as written before runfile existed.)
type FrontRow = frontRow

type frontRow struct {
	Member     int64   `parquet:"member"`
	Label      string  `parquet:"label"`
	Formula    string  `parquet:"formula"`
	Simplified string  `parquet:"simplified"`
	Size       int64   `parquet:"size"`
	Hash       string  `parquet:"hash"`
	Objectives string  `parquet:"objectives"` // comma-separated names of objective_1..3
	Objective1 float64 `parquet:"objective_1"`
	Objective2 float64 `parquet:"objective_2"`
	Objective3 float64 `parquet:"objective_3"` // NaN with two objectives
	Score      float64 `parquet:"score"`       // the config's scalar validation score
	OmegaLo    float64 `parquet:"omega_lo"`    // NaN: never wins (or three objectives)
	OmegaHi    float64 `parquet:"omega_hi"`
	Pick       bool    `parquet:"pick"` // the config's ω member
	Dominates  string  `parquet:"dominates"`
}

// WriteFront writes f as the front.parquet at path, atomically.
func WriteFront(path string, f *Front) error {
	rows := make([]FrontRow, len(f.Members))
	for i, m := range f.Members {
		row := FrontRow{
			Member: int64(i + 1), Label: m.Label, Formula: m.Formula(), Simplified: m.SimplifiedFormula(), Size: int64(m.Size), Hash: m.Hash,
			Objectives: strings.Join(f.Objectives, ","), Objective1: m.Validation[0], Objective2: m.Validation[1], Objective3: math.NaN(),
			Score: m.Score, OmegaLo: math.NaN(), OmegaHi: math.NaN(), Pick: i == f.Pick, Dominates: strings.Join(m.Dominates, ","),
		}
		if len(m.Validation) > 2 {
			row.Objective3 = m.Validation[2]
		}
		if m.OmegaLo != nil {
			row.OmegaLo, row.OmegaHi = *m.OmegaLo, *m.OmegaHi
		}
		rows[i] = row
	}
	return tablefile.Write(path, rows, func(FrontRow) error { return nil })
}

// ReadFront reads a front.parquet, each row checked (FrontRow.check;
// an error names the file and the row).
func ReadFront(path string) ([]FrontRow, error) {
	return tablefile.Read(path, FrontRow.check)
}

// check accepts what WriteFront writes: a member number and label, and
// finite objectives but objective_3 (NaN with two) and the ω bounds (NaN:
// never wins).
func (r FrontRow) check() error {
	if r.Member < 1 || r.Label == "" {
		return fmt.Errorf("member %d %q: want a number ≥ 1 and a label", r.Member, r.Label)
	}
	if err := tablefile.Finite("objective_1", r.Objective1, "objective_2", r.Objective2, "score", r.Score); err != nil {
		return err
	}
	return nil
}

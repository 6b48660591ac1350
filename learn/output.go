package learn

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/latex"
	"github.com/evogp/evogp/internal/runlog"
	"github.com/evogp/evogp/runfile"
)

// GenerationRow is one row of generations.parquet: runlog.GenerationRow,
// so the table the learner writes is the one reports reads. Best, Median
// and Worst are fitness values — sums over the generation's subset of
// normalised objectives — of the population after survival; BestFormula,
// Size and Depth describe the best member as evolved (not simplified);
// Unique counts distinct canonical hashes in the population; Evaluations
// counts the simulations run for the generation and CacheHits the
// (candidate, instance) terms answered without one (Evaluations +
// CacheHits = candidates × α).
type GenerationRow = runlog.GenerationRow

// writeHall writes hall_of_fame.csv: rank (1 = best), the mean normalised
// training score and its generation, the validation score, size, depth,
// hash, the formula as evolved, the formula simplified for the
// simulator's inputs (expr.SimplifyOn with expr.DefaultDomain, so a − a,
// d % d and d − d − a become 0, 1 and 0 − a; the ranking is the same as
// the formula's on those inputs), whether that simplification is a
// constant (ranks every job alike: FIFO order), and same_as: the rank of
// the best entry above it that computes the same function (equal
// simplified form) or, when the run sampled decisions for gp.dedup:
// behaviour, orders every sampled decision the same way (behaviour gives
// the phenotype of a tree, or nil without a sample); empty when the entry
// is the first of its kind.
//
// The first formula columns are what a reader is shown: readable is the
// entry's formula in readable notation (expr.Readable: "/" where the
// divisor is never 0 on the simulator's inputs, -x), and for the run's
// chosen individual (reduced = true) it is the reduced tree — the same
// schedule on every training and validation instance, checked by
// simulation — else the domain-simplified one; routing_readable likewise.
func writeHall(path string, hall []HallEntry, behaviour func(*expr.Tree) uint64, chosen uint64, red *Reduction) error {
	same := hallDuplicates(hall, behaviour)
	dom := expr.DefaultDomain()
	routing := len(hall) > 0 && hall[0].Routing.Tree != nil
	// Two trees: formula is the ranking f; size and depth are of the
	// pair; the routing R follows (runfile.HallColumns).
	h := &runfile.Hall{Routing: routing}
	for i, e := range hall {
		ind := individual{e.Routing.Tree, e.Tree}
		depth := e.Tree.Depth()
		if routing {
			depth = max(depth, e.Routing.Tree.Depth())
		}
		simp := expr.SimplifyForPrint(e.Tree, onDomain)
		dup := ""
		if same[i] >= 0 {
			dup = strconv.Itoa(same[i] + 1)
		}
		isChosen := red != nil && e.hash == chosen
		readable := expr.Readable(simp, dom)
		if isChosen {
			readable = expr.Readable(expr.Shorten(red.Ranking), dom)
		}
		row := []string{
			strconv.Itoa(i + 1), num(e.Score), strconv.Itoa(e.Generation), num(e.Validation),
			strconv.Itoa(ind.size()), strconv.Itoa(depth), fmt.Sprintf("%016x", e.hash),
			readable, strconv.FormatBool(isChosen),
			e.Tree.String(), simp.String(), strconv.FormatBool(isConstantTree(simp)), dup,
		}
		if routing {
			route := expr.Readable(expr.SimplifyForPrint(e.Routing.Tree, onDomain), dom)
			if isChosen {
				route = expr.Readable(expr.Shorten(red.Routing), dom)
			}
			row = append(row, route, e.Routing.Tree.String(), expr.SimplifyForPrint(e.Routing.Tree, expr.Simplify).String())
		}
		h.Rows = append(h.Rows, row)
	}
	return runfile.WriteHall(path, h)
}

// onDomain simplifies for the simulator's inputs (expr.DefaultDomain).
func onDomain(t *expr.Tree) *expr.Tree { return expr.SimplifyOn(t, expr.DefaultDomain()) }

// hallDuplicates returns, per hall entry, the index of the first earlier
// entry with the same domain-simplified form or (behaviour non-nil) the
// same phenotype, or −1.
func hallDuplicates(hall []HallEntry, behaviour func(*expr.Tree) uint64) []int {
	out := make([]int, len(hall))
	byForm := map[string]int{}
	type phenotype struct {
		ranking uint64
		routing string
	}
	byPheno := map[phenotype]int{}
	for i, h := range hall {
		out[i] = -1
		// A two-tree entry repeats another only with the same routing tree
		// too (compared in simplified form; its behaviour is not sampled).
		route := ""
		if h.Routing.Tree != nil {
			route = expr.Simplify(h.Routing.Tree).String()
		}
		form := expr.SimplifyOn(h.Tree, expr.DefaultDomain()).String() + "\x00" + route
		if j, ok := byForm[form]; ok {
			out[i] = j
		} else {
			byForm[form] = i
		}
		if behaviour == nil {
			continue
		}
		p := phenotype{behaviour(h.Tree), route}
		if j, ok := byPheno[p]; ok {
			if out[i] < 0 || j < out[i] {
				out[i] = j
			}
		} else {
			byPheno[p] = i
		}
	}
	return out
}

// isConstantTree reports whether t uses no terminal.
func isConstantTree(t *expr.Tree) bool { return t.Terminals() == 0 }

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// formulaGo wraps expr's Go rendering in a compilable file (package
// formula). It is stored as formula.go.txt: the go tool ignores the name,
// so a run directory inside a module never becomes a Go package (rename it
// to formula.go to compile it).
func formulaGo(t *expr.Tree) ([]byte, error) {
	src, err := expr.Format(t, "go")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by evogp learn. DO NOT EDIT.\n\n")
	b.WriteString("// Package formula holds a learned priority function: d is the remaining\n")
	b.WriteString("// duration, q the queuing time so far, u the user priority and g the GPU\n")
	b.WriteString("// demand of a job; the smallest value is scheduled first.\n")
	b.WriteString("package formula\n\n")
	b.WriteString(src)
	return b.Bytes(), nil
}

// formulaTeX is the displayed LaTeX of a run's simplified trees, ready
// to paste: an equation for a ranking tree alone, an align block with
// R(j, p) and f(j) for a two-tree run (routing not nil), and in both a
// row defining pdiv when a division is protected (latex.Display). A
// divisor the simulator's inputs prove non-zero prints as \frac.
func formulaTeX(routing, ranking *expr.Tree) ([]byte, error) {
	dom := expr.DefaultDomain()
	if routing != nil {
		src, err := FormatPairOn(routing, ranking, "latex", dom)
		return []byte(src), err
	}
	src, err := expr.FormatOn(ranking, "latex", dom)
	if err != nil {
		return nil, err
	}
	return []byte(latex.Display(latex.Line{LHS: TeXSignature(ranking), RHS: src})), nil
}

// TeXSignature is "f(q, a)": f of the terminals t uses, in catalogue
// order ("f" alone for a constant), the left-hand side of an exported
// ranking formula.
func TeXSignature(t *expr.Tree) string {
	names := t.Terminals().Names()
	if len(names) == 0 {
		return "f"
	}
	return "f(" + strings.Join(names, ", ") + ")"
}

// plotConvergence writes dir/convergence.png and .svg with
// runlog.ConvergencePlot: best and median of the mean normalised objective
// per training instance (fitness ÷ α) per generation, the best
// individual's validation score every gp.validate_every generations, and
// the best baseline's validation score as a reference line.
func plotConvergence(dir string, rows []GenerationRow, alpha int, curve []CurvePoint, best BaselineScore) error {
	ref := runlog.ConvergenceRef{Subset: alpha, Baseline: best.Name, Level: best.Score}
	for _, c := range curve {
		ref.Validation = append(ref.Validation, runlog.ValidationPoint{Generation: c.Generation, Score: c.Score})
	}
	fig, err := runlog.ConvergencePlot(rows, ref)
	if err != nil {
		return err
	}
	fig.Name = PlotName
	_, err = fig.Save(dir, []string{"png", "svg"})
	return err
}

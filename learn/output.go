package learn

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/runlog"
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
// hash and the formula as evolved and simplified.
func writeHall(path string, hall []HallEntry) error {
	return atomicio.WriteFile(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		routing := len(hall) > 0 && hall[0].Routing.Tree != nil
		head := []string{"rank", "train_score", "generation", "validation_score", "size", "depth", "hash", "formula", "simplified"}
		if routing {
			// Two trees: formula is the ranking f; size and depth are of
			// the pair; the routing R follows.
			head = append(head, "routing", "routing_simplified")
		}
		cw.Write(head)
		for i, h := range hall {
			ind := individual{h.Routing.Tree, h.Tree}
			depth := h.Tree.Depth()
			if routing {
				depth = max(depth, h.Routing.Tree.Depth())
			}
			row := []string{
				strconv.Itoa(i + 1), num(h.Score), strconv.Itoa(h.Generation), num(h.Validation),
				strconv.Itoa(ind.size()), strconv.Itoa(depth), fmt.Sprintf("%016x", h.hash),
				h.Tree.String(), expr.Simplify(h.Tree).String(),
			}
			if routing {
				row = append(row, h.Routing.Tree.String(), expr.Simplify(h.Routing.Tree).String())
			}
			cw.Write(row)
		}
		cw.Flush()
		return cw.Error()
	})
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// BestJSON is the content of best.json: the chosen priority function in
// every form, its scores and where it came from. It holds nothing that
// depends on the wall clock or the run directory, so an interrupted and
// resumed run writes the same bytes as an uninterrupted one.
type BestJSON struct {
	Config         string     `json:"config"`
	Seed           uint64     `json:"seed"`
	Objective      string     `json:"objective"`
	Generations    int        `json:"generations"`
	Tree           *expr.Tree `json:"tree"`
	Infix          string     `json:"infix"`
	Simplified     string     `json:"simplified"`
	SimplifiedTree *expr.Tree `json:"simplified_tree"`
	// SimplifiedDomain is expr.SimplifyOn(Tree, expr.DefaultDomain()): the
	// formula simplified for the simulator's inputs (d ≥ 1/3600, q ≥ 0,
	// u ≥ 1, g ≥ 1, no intermediate overflow), where it ranks jobs exactly
	// as Tree does; for other inputs use Simplified.
	SimplifiedDomain string `json:"simplified_domain"`
	LaTeX            string `json:"latex"`
	Hash             string `json:"hash"`
	Size             int    `json:"size"`
	Depth            int    `json:"depth"`
	// Validation is the mean over the validation instances of O_c,i /
	// O_SRSF,i (SRSF scores 1; lower is better).
	Validation          float64 `json:"validation_score"`
	ValidationInstances int     `json:"validation_instances"`
	// TrainScore is the chosen tree's last training fitness divided by the
	// subset size, or null if it was not in the final population.
	TrainScore *float64 `json:"train_score"`
	// Terminals is the run's terminal set (gp.terminals) and Constants
	// whether ephemeral constants were on: the formula uses nothing else.
	// A best.json without the key is read as the paper's {d, q, u, g}.
	Terminals expr.Terminals `json:"terminals"`
	Constants bool           `json:"constants"`
	// Candidate is the scheduler the formula was scored under
	// (gp.allocator + formula + gp.placer); TimeUnit the unit of d, q, a, s.
	Candidate string `json:"candidate"`
	TimeUnit  string `json:"time_unit"`
	// ValidationBaselines are the named baselines' validation scores (same
	// scale as Validation) and BestBaseline the lowest of them.
	ValidationBaselines []BaselineScore `json:"validation_baselines"`
	BestBaseline        string          `json:"best_baseline"`
	// ValidationCurve is the best individual's validation score every
	// gp.validate_every generations.
	ValidationCurve []CurvePoint `json:"validation_curve"`
	// Test is the held-out test table (null without test instances).
	Test *TestTable `json:"test"`
	// Warnings: constant formula, or ranking exactly like a reference.
	Warnings []string `json:"warnings"`
	// Front is the front of formulas (gp.selection: nsga2; absent with
	// scalar selection). The formula above is its member for the
	// config's ω.
	Front *Front `json:"front,omitempty"`
	// With gp.learn: [routing, ranking] (absent otherwise): the trees
	// learned ("routing", "ranking"), the routing tree R as evolved and
	// simplified, its terminal set (gp.routing_terminals) and the rule
	// allocator's scope. Tree, Infix, Simplified and Terminals above are
	// the ranking tree f's; Candidate is then rule+formula+PLACER, Hash,
	// Size and Depth are of the pair.
	Learn                 []string    `json:"learn,omitempty"`
	RoutingTree           RoutingTree `json:"routing_tree,omitzero"`
	RoutingInfix          string      `json:"routing_infix,omitempty"`
	RoutingSimplified     string      `json:"routing_simplified,omitempty"`
	RoutingSimplifiedTree RoutingTree `json:"routing_simplified_tree,omitzero"`
	RoutingTerminals      []string    `json:"routing_terminals,omitempty"`
	Scope                 string      `json:"scope,omitempty"`
}

// ReadBest reads a best.json and checks that its formula uses only the
// terminals recorded with it, all of which the simulator can supply.
func ReadBest(path string) (*BestJSON, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read best.json: %w", err)
	}
	var best BestJSON
	if err := json.Unmarshal(b, &best); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if best.Tree.Size() == 0 {
		return nil, fmt.Errorf("%s: no \"tree\"", path)
	}
	terms := best.Terminals.Or(expr.PaperTerminals)
	if err := CheckTerminals(best.Tree, terms); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkBestRouting(&best); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &best, nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, append(b, '\n'))
}

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

// formulaTeX is a standalone LaTeX equation for the simplified tree.
func formulaTeX(t *expr.Tree) ([]byte, error) {
	src, err := expr.Format(t, "latex")
	if err != nil {
		return nil, err
	}
	return []byte("% Learned priority function (smaller = scheduled earlier);\n" +
		"% pdiv(a, b) = a if b = 0, else a / b.\n" +
		"\\begin{equation}\n  f(d, q, u, g) = " + src + "\n\\end{equation}\n"), nil
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

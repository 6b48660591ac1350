package learn

import (
	"encoding/json"
	"fmt"
	"github.com/evogp/evogp/internal/latex"
	"strings"

	"github.com/evogp/evogp/expr"
)

// FormatPair renders a two-tree scheduler's routing tree R and ranking
// tree f in one of expr.Formats(), each clearly labelled: R(j, p) (the
// cluster with the smallest value gets job j) and f(j) (the job with the
// smallest value runs first). Infix, prefix and SymPy give one line per
// tree ("R(j, p) = …", "f(j) = …"; SymPy one program, expr.SympyProgram,
// assigning routing_R and ranking_f); LaTeX the two lines of an aligned environment; Go the two
// functions routing and priority; JSON an object {"routing": …,
// "ranking": …}; dot two digraphs named routing and ranking.
func FormatPair(routing, ranking *expr.Tree, format string) (string, error) {
	return formatPair(routing, ranking, format, nil)
}

// FormatPairOn is FormatPair for trees that only see inputs of dom: as
// expr.FormatOn, the LaTeX and SymPy forms print a division dom proves
// safe as true division. dom describes both trees, so its Extra must be
// nil (expr.DefaultDomain): Extra is keyed by slot, and slots beyond the
// shared four mean different terminals in the two catalogues.
func FormatPairOn(routing, ranking *expr.Tree, format string, dom expr.Domain) (string, error) {
	if dom.Extra != nil {
		return "", fmt.Errorf("format %s: a domain with extra bounds describes one catalogue, not both trees", format)
	}
	return formatPair(routing, ranking, format, &dom)
}

func formatPair(routing, ranking *expr.Tree, format string, dom *expr.Domain) (string, error) {
	if format == "sympy" {
		return expr.SympyProgram([]expr.SympyFormula{
			{Name: "routing_R", Comment: "routing R(j, p): the feasible cluster with the smallest value gets job j", Tree: routing},
			{Name: "ranking_f", Comment: "ranking f(j): the job with the smallest value runs first", Tree: ranking},
		}, dom)
	}
	one := func(t *expr.Tree) (string, error) {
		if dom != nil {
			return expr.FormatOn(t, format, *dom)
		}
		return expr.Format(t, format)
	}
	r, err := one(routing)
	if err != nil {
		return "", err
	}
	f, err := one(ranking)
	if err != nil {
		return "", err
	}
	r, f = strings.TrimRight(r, "\n"), strings.TrimRight(f, "\n")
	switch format {
	case "infix", "prefix":
		return "R(j, p) = " + r + "\nf(j) = " + f + "\n", nil
	case "latex":
		return latex.Display(latex.Line{LHS: "R(j, p)", RHS: r}, latex.Line{LHS: "f(j)", RHS: f}), nil
	case "go":
		return "// Routing R(j, p): the feasible cluster with the smallest value gets job j.\n" + r +
			"\n\n// Ranking f(j): the job with the smallest value runs first.\n" + f + "\n", nil
	case "json":
		b, err := json.Marshal(struct {
			Routing json.RawMessage `json:"routing"`
			Ranking json.RawMessage `json:"ranking"`
		}{json.RawMessage(r), json.RawMessage(f)})
		return string(b) + "\n", err
	case "dot":
		rename := func(src, name, label string) string {
			return strings.Replace(src, "digraph expr {", fmt.Sprintf("digraph %s {\n\tlabel=%q;", name, label), 1)
		}
		return rename(r, "routing", "routing R(j, p)") + "\n" + rename(f, "ranking", "ranking f(j)") + "\n", nil
	}
	return "", fmt.Errorf("format %q: no two-tree rendering (have %s)", format, strings.Join(expr.Formats(), ", "))
}

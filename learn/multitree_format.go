package learn

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evogp/evogp/expr"
)

// FormatPair renders a two-tree scheduler's routing tree R and ranking
// tree f in one of expr.Formats(), each clearly labelled: R(j, p) (the
// cluster with the smallest value gets job j) and f(j) (the job with the
// smallest value runs first). Infix, prefix and SymPy give one line per
// tree ("R(j, p) = …", "f(j) = …"; SymPy as Python assignments routing_R = …,
// ranking_f = …); LaTeX the two lines of an aligned environment; Go the two
// functions routing and priority; JSON an object {"routing": …,
// "ranking": …}; dot two digraphs named routing and ranking.
func FormatPair(routing, ranking *expr.Tree, format string) (string, error) {
	r, err := expr.Format(routing, format)
	if err != nil {
		return "", err
	}
	f, err := expr.Format(ranking, format)
	if err != nil {
		return "", err
	}
	r, f = strings.TrimRight(r, "\n"), strings.TrimRight(f, "\n")
	switch format {
	case "infix", "prefix":
		return "R(j, p) = " + r + "\nf(j) = " + f + "\n", nil
	case "sympy":
		return "# routing R(j, p): the feasible cluster with the smallest value gets job j\nrouting_R = " + r +
			"\n# ranking f(j): the job with the smallest value runs first\nranking_f = " + f + "\n", nil
	case "latex":
		return "R(j, p) &= " + r + " \\\\\nf(j) &= " + f + "\n", nil
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

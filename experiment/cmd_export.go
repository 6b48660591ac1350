package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/latex"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/runfile"
)

// ExportHelp is the description of `evogp export`: what Export reads
// and prints.
const ExportHelp = "Reads the reduced formula of best.json (in RUN_DIR, or the file given; \"reduced\": the smallest\n" +
	"trees found that schedule every training and validation instance exactly as the evolved ones,\n" +
	"printed with true division where the divisor is never 0 on the simulator's inputs and -x for\n" +
	"0 - x) or, with --evolved or in a best.json without one, the evolved \"infix\" formula, and prints it\n" +
	"(of a collected sweep directory, every finished point's, each under a line \"# POINT\"; in LaTeX one\n" +
	"booktabs table with a row per point)\n" +
	"(a run that learned a routing tree too, gp.learn: [routing, ranking], prints both, labelled\n" +
	"routing R(j, p) and ranking f(j))\n" +
	"in the chosen format; --simplify first applies the exact simplifier (semantics kept,\n" +
	"protected division included); --domain instead simplifies for the simulator's inputs only\n" +
	"(d ≥ 1/3600, q ≥ 0, u ≥ 1, g ≥ 1, no intermediate overflow), removing bloat such as x % (q - q)\n" +
	"or g % g that is needed only for 0, Inf or NaN inputs (see evogp expr simplify --help).\n" +
	"LaTeX is a complete equation block (align with R(j, p) and f(j) for a two-tree run, and a row\n" +
	"defining pdiv when a division is protected); --standalone makes it a document that compiles alone."

// ExportOptions say what `evogp export` prints and how.
type ExportOptions struct {
	// Args are the command's positional arguments: exactly one source, a
	// run directory, a best.json, or a collected sweep directory (every
	// finished point's formula is printed).
	Args []string
	// Format is one of expr.Formats().
	Format string
	// Simplify applies the exact simplifier first; Domain instead
	// simplifies for the simulator's inputs (expr.DefaultDomain) and
	// prints the divisions the domain proves safe as true division.
	Simplify, Domain bool
	// Omega, if OmegaGiven, picks the member of a front run's best.json
	// minimising ω·objective1 + (1−ω)·objective2 on validation.
	Omega      float64
	OmegaGiven bool
	// Out, if not empty, is the file written (atomically) instead of w.
	Out string
	// Standalone wraps LaTeX in a document that compiles on its own
	// (latex.Standalone); only with Format "latex".
	Standalone bool
	// Evolved prints the evolved trees (best.json "tree") instead of the
	// reduced ones ("reduced"), which are printed by default when present.
	Evolved bool
}

// Export prints the formula(s) of the source in o.Args as o says, to o.Out or w; a
// run that learned a routing tree too prints both, labelled. Nothing is
// written on an error.
func Export(ctx context.Context, o ExportOptions, w io.Writer) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(o.Args) != 1 {
		return errors.New("export: give one RUN_DIR or best.json (see evogp export --help)")
	}
	src := o.Args[0]
	if o.Standalone && o.Format != "latex" {
		return fmt.Errorf("export: --standalone is for --format latex, not %s", o.Format)
	}
	var text string
	var err error
	if st, err := os.Stat(src); err == nil && st.IsDir() {
		points, isSweep, err := SweepBests(src)
		if err != nil {
			return err
		}
		if isSweep {
			// A collected sweep: every finished point's formula, each
			// under a comment line naming the point.
			if len(points) == 0 {
				return fmt.Errorf("export %s: no point of the sweep has a best.json yet", src)
			}
			if o.Format == "latex" {
				if text, err = sweepLaTeX(points, o); err != nil {
					return err
				}
			}
			var b strings.Builder
			for _, pt := range points {
				if o.Format == "latex" {
					break // a table, above
				}
				one, err := ExportBest(pt.Best, o)
				if err != nil {
					return err
				}
				fmt.Fprintf(&b, "# %s\n%s", pt.Point, withNewline(one))
			}
			if o.Format != "latex" {
				text = b.String()
			}
		}
	}
	if text == "" {
		path := src
		if st, err := os.Stat(src); err == nil && st.IsDir() {
			path = filepath.Join(src, runfile.BestFile)
		}
		if text, err = ExportBest(path, o); err != nil {
			return err
		}
	}
	text = withNewline(text)
	if o.Standalone {
		text = latex.Standalone(text)
	}
	if o.Out != "" {
		return atomicio.WriteBytes(o.Out, []byte(text))
	}
	_, err = fmt.Fprint(w, text)
	return err
}

func withNewline(s string) string {
	if !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// ExportBest formats the formula(s) of the best.json at path as o says
// (o.Args and o.Out are not read). LaTeX is a complete displayed block:
// an equation for one tree, an align block holding R(j, p) and f(j) for
// a two-tree run (latex.Display).
func ExportBest(path string, o ExportOptions) (string, error) {
	routingTree, tree, onDomain, err := exportTrees(path, o)
	if err != nil {
		return "", err
	}
	switch {
	case routingTree != nil && onDomain:
		return learn.FormatPairOn(routingTree, tree, o.Format, expr.DefaultDomain())
	case routingTree != nil:
		return learn.FormatPair(routingTree, tree, o.Format)
	}
	src, err := formatOne(tree, o.Format, onDomain)
	if err != nil || o.Format != "latex" {
		return src, err
	}
	return latex.Display(latex.Line{LHS: learn.TeXSignature(tree), RHS: src}), nil
}

// formatOne prints one tree; on the domain, divisions it proves safe
// print as true division.
func formatOne(t *expr.Tree, format string, domain bool) (string, error) {
	if domain {
		return expr.FormatOn(t, format, expr.DefaultDomain())
	}
	return expr.Format(t, format)
}

// exportTrees reads the trees of the best.json at path, simplified as o
// says: routing is nil for a one-tree run. They are the reduced trees
// when best.json has them (unless o.Evolved; with o.OmegaGiven the
// chosen front member's reduced trees), and
// onDomain says to print them in the simulator-domain notation (true
// division where the divisor is never 0): with --domain, and always for
// reduced trees, which were checked in it.
func exportTrees(path string, o ExportOptions) (routing, ranking *expr.Tree, onDomain bool, err error) {
	var infix, routingInfix string
	reduced := false
	if o.OmegaGiven {
		var m runfile.FrontMember
		m, err = learn.OmegaMember(path, o.Omega)
		infix, routingInfix = m.Infix, m.RoutingInfix
		if m.ReducedInfix != "" && !o.Evolved {
			// The member's reduced trees (every member of a front is
			// reduced; a best.json written before that has none).
			infix, routingInfix, reduced = m.ReducedInfix, m.ReducedRoutingInfix, true
		}
	} else {
		infix, err = ReadBestInfix(path)
	}
	if err != nil {
		return nil, nil, false, err
	}
	tree, err := expr.Parse(infix)
	if err != nil {
		return nil, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	var routingTree *expr.Tree
	if routingInfix != "" { // a two-tree front member: both trees
		if routingTree, err = expr.Routing.Parse(routingInfix); err != nil {
			return nil, nil, false, fmt.Errorf("%s: routing_infix %s: %w", path, expr.Quote(routingInfix, err), err)
		}
	}
	if !o.OmegaGiven && !o.Evolved {
		// The reduced trees (the same schedule on every training and
		// validation instance, checked by simulation), when best.json has
		// them.
		red, err := formula.ReadBestReduced(path)
		if err != nil {
			return nil, nil, false, err
		}
		if red != nil {
			reduced = true
			if tree, err = expr.Parse(red.Infix); err != nil {
				return nil, nil, false, fmt.Errorf("%s: %w", path, err)
			}
			if red.RoutingInfix != "" {
				if routingTree, err = expr.Routing.Parse(red.RoutingInfix); err != nil {
					return nil, nil, false, fmt.Errorf("%s: %w", path, err)
				}
			}
		}
	}
	if !o.OmegaGiven && !reduced {
		routing, err := formula.ReadBestRouting(path)
		if err != nil {
			return nil, nil, false, err
		}
		if routing != nil {
			if routingTree, err = expr.Routing.Parse(routing.Infix); err != nil {
				return nil, nil, false, fmt.Errorf("%s: routing_infix %s: %w", path, expr.Quote(routing.Infix, err), err)
			}
		}
	}
	simplify := func(t *expr.Tree) *expr.Tree {
		switch {
		case o.Domain:
			return expr.SimplifyOn(t, expr.DefaultDomain())
		case o.Simplify:
			return expr.Simplify(t)
		}
		return t
	}
	if routingTree != nil {
		routingTree = simplify(routingTree)
	}
	return routingTree, simplify(tree), o.Domain || reduced, nil
}

// sweepLaTeX is the LaTeX of a collected sweep: one booktabs table, a
// row per finished point (its overrides as text, then its formulas in
// math), and no comment lines.
func sweepLaTeX(points []SweepPointBest, o ExportOptions) (string, error) {
	tab := latex.Table{Columns: []latex.Column{{Header: "point", Align: "l"}}}
	type row struct {
		point      string
		routing, f string
	}
	var rows []row
	twoTree := false
	for _, pt := range points {
		r, f, onDomain, err := exportTrees(pt.Best, o)
		if err != nil {
			return "", err
		}
		var x row
		x.point = latex.EscapeText(pt.Point)
		if x.f, err = formatOne(f, "latex", onDomain); err != nil {
			return "", err
		}
		if r != nil {
			twoTree = true
			if x.routing, err = formatOne(r, "latex", onDomain); err != nil {
				return "", err
			}
		}
		rows = append(rows, x)
	}
	if twoTree {
		tab.Columns = append(tab.Columns, latex.Column{Header: "routing $R(j, p)$", Align: "l"})
	}
	tab.Columns = append(tab.Columns, latex.Column{Header: "ranking $f(j)$", Align: "l"})
	pdiv := false
	for _, x := range rows {
		cells := []string{x.point}
		if twoTree {
			cells = append(cells, mathCell(x.routing))
		}
		tab.Rows = append(tab.Rows, append(cells, mathCell(x.f)))
		pdiv = pdiv || strings.Contains(x.routing+x.f, latex.PdivCommand)
	}
	if pdiv {
		tab.Caption = "Learned formulas per sweep point; $\\operatorname{pdiv}(x, y) = x$ if $y = 0$, else $x / y$."
	}
	return tab.String(), nil
}

// mathCell is a table cell holding math ("–" when empty).
func mathCell(m string) string {
	if m == "" {
		return "–"
	}
	return "$" + m + "$"
}

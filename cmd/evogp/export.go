package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/learn"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "print a learned priority function as infix, LaTeX, Go, SymPy, JSON or Graphviz dot",
		ArgsUsage: "RUN_DIR|best.json",
		UsageText: "evogp export RUN_DIR|best.json [--format " + strings.Join(expr.Formats(), "|") + "] [--simplify|--domain] [--out FILE]\n\n" +
			"Examples:\n" +
			"   evogp export runs/quick --format latex\n" +
			"   evogp export runs/quick/best.json --format go --out formula.go\n" +
			"   evogp export runs/quick --format dot --simplify | dot -Tsvg > tree.svg\n" +
			"   evogp export runs/quick --domain\n" +
			"   evogp export runs/front --omega 0.3          # a front run: the formula for ω = 0.3",
		Description: "Reads the \"infix\" formula of best.json (in RUN_DIR, or the file given) and prints it\n" +
			"(of a collected sweep directory, every finished point's, each under a line \"# POINT\")\n" +
			"(a run that learned a routing tree too, gp.learn: [routing, ranking], prints both, labelled\n" +
			"routing R(j, p) and ranking f(j))\n" +
			"in the chosen format; --simplify first applies the exact simplifier (semantics kept,\n" +
			"protected division included); --domain instead simplifies for the simulator's inputs only\n" +
			"(d ≥ 1/3600, q ≥ 0, u ≥ 1, g ≥ 1, no intermediate overflow), removing bloat such as x % (q - q)\n" +
			"or g % g that is needed only for 0, Inf or NaN inputs (see evogp expr simplify --help).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "infix", Usage: "one of " + strings.Join(expr.Formats(), ", ")},
			&cli.BoolFlag{Name: "simplify", Usage: "simplify the formula before printing"},
			&cli.BoolFlag{Name: "domain", Usage: "simplify for the simulator's inputs (d>0, q≥0, u≥1, g≥1, no overflow); implies --simplify"},
			&cli.StringFlag{Name: "out", Usage: "write to FILE (atomically) instead of standard output"},
			&cli.Float64Flag{Name: "omega", Usage: "of a front run (gp.selection: nsga2), the member minimising ω·objective1 + (1−ω)·objective2 on validation"},
		},
		Action: runExport,
	}
}

func runExport(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return errors.New("export: give one RUN_DIR or best.json (see evogp export --help)")
	}
	src := args[0]
	var text string
	if st, err := os.Stat(src); err == nil && st.IsDir() {
		points, isSweep, err := experiment.SweepBests(src)
		if err != nil {
			return err
		}
		if isSweep {
			// A collected sweep: every finished point's formula, each
			// under a comment line naming the point.
			if len(points) == 0 {
				return fmt.Errorf("export %s: no point of the sweep has a best.json yet", src)
			}
			var b strings.Builder
			for _, pt := range points {
				one, err := exportOne(c, pt.Best)
				if err != nil {
					return err
				}
				fmt.Fprintf(&b, "# %s\n%s", pt.Point, withNewline(one))
			}
			text = b.String()
		}
	}
	if text == "" {
		path := src
		if st, err := os.Stat(src); err == nil && st.IsDir() {
			path = filepath.Join(src, "best.json")
		}
		if text, err = exportOne(c, path); err != nil {
			return err
		}
	}
	text = withNewline(text)
	if out := c.String("out"); out != "" {
		return atomicio.WriteBytes(out, []byte(text))
	}
	_, err = fmt.Fprint(c.App.Writer, text)
	return err
}

func withNewline(s string) string {
	if !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// exportOne formats the formula(s) of the best.json at path as the flags say.
func exportOne(c *cli.Context, path string) (string, error) {
	var err error
	var infix string
	if c.IsSet("omega") {
		infix, _, err = learn.OmegaInfix(path, c.Float64("omega"))
	} else {
		infix, err = experiment.ReadBestInfix(path)
	}
	if err != nil {
		return "", err
	}
	tree, err := expr.Parse(infix)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	var routingTree *expr.Tree
	if !c.IsSet("omega") {
		routing, err := formula.ReadBestRouting(path)
		if err != nil {
			return "", err
		}
		if routing != nil {
			if routingTree, err = expr.Routing.Parse(routing.Infix); err != nil {
				return "", fmt.Errorf("%s: routing_infix %s: %w", path, expr.Quote(routing.Infix, err), err)
			}
		}
	}
	simplify := func(t *expr.Tree) *expr.Tree {
		switch {
		case c.Bool("domain"):
			return expr.SimplifyOn(t, expr.DefaultDomain())
		case c.Bool("simplify"):
			return expr.Simplify(t)
		}
		return t
	}
	tree = simplify(tree)
	var text string
	switch {
	case routingTree != nil:
		text, err = learn.FormatPair(simplify(routingTree), tree, c.String("format"))
	case c.Bool("domain"): // divisions the domain proves safe print as true division
		text, err = expr.FormatOn(tree, c.String("format"), expr.DefaultDomain())
	default:
		text, err = expr.Format(tree, c.String("format"))
	}
	if err != nil {
		return "", err
	}
	return text, err
}

package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "print a learned priority function as infix, LaTeX, Go, SymPy, JSON or Graphviz dot",
		ArgsUsage: "RUN_DIR|best.json",
		UsageText: "evogp export RUN_DIR|best.json [--format " + strings.Join(expr.Formats(), "|") + "] [--simplify|--domain] [--evolved] [--out FILE]\n\n" +
			"Examples:\n" +
			"   evogp export runs/quick --format latex\n" +
			"   evogp export runs/quick --format latex --standalone --out formula.tex && pdflatex formula.tex\n" +
			"   evogp export runs/quick/best.json --format go --out formula.go\n" +
			"   evogp export runs/quick --format dot --simplify | dot -Tsvg > tree.svg\n" +
			"   evogp export runs/quick --domain\n" +
			"   evogp export runs/front --omega 0.3          # a front run: the formula for ω = 0.3",
		Description: experiment.ExportHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "infix", Usage: "one of " + strings.Join(expr.Formats(), ", ")},
			&cli.BoolFlag{Name: "simplify", Usage: "simplify the formula before printing"},
			&cli.BoolFlag{Name: "domain", Usage: "simplify for the simulator's inputs (d>0, q≥0, u≥1, g≥1, no overflow); implies --simplify"},
			&cli.StringFlag{Name: "out", Usage: "write to FILE (atomically) instead of standard output"},
			&cli.BoolFlag{Name: "standalone", Usage: "with --format latex: a complete document (article, amsmath, booktabs) that compiles on its own"},
			&cli.BoolFlag{Name: "evolved", Usage: "print the evolved trees (best.json \"tree\") instead of the reduced ones printed by default"},
			&cli.Float64Flag{Name: "omega", Usage: "of a front run (gp.selection: nsga2), the member minimising ω·objective1 + (1−ω)·objective2 on validation (its reduced trees; with --evolved its evolved ones)"},
		},
		Action: runExport,
	}
}

func runExport(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	return experiment.Export(c.Context, experiment.ExportOptions{Args: args, Format: c.String("format"), Simplify: c.Bool("simplify"),
		Domain: c.Bool("domain"), Omega: c.Float64("omega"), OmegaGiven: c.IsSet("omega"), Out: c.String("out"), Standalone: c.Bool("standalone"),
		Evolved: c.Bool("evolved")}, c.App.Writer)
}

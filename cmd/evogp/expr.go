package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/cliargs"
)

// exprCommand groups the formula tools: simplify (and print in any format)
// and eval.
func exprCommand() *cli.Command {
	return &cli.Command{
		Name:  "expr",
		Usage: "simplify, print and evaluate priority formulas over d, q, u, g",
		UsageText: "evogp expr simplify [--format FORMAT] FORMULA\n" +
			"evogp expr eval FORMULA d=VALUE q=VALUE u=VALUE g=VALUE\n\n" +
			"Example:\n" +
			"   evogp expr simplify --format latex \"((q+g)%q - u) * (d % (q + (d+g-u)%(q*q)))\"",
		Description: expr.SyntaxHelp +
			"Flags go before or after the formula. A formula that starts with '-' must follow --, or the shell\n" +
			"word would be read as a flag: evogp expr simplify -- \"-g*d\".",
		Subcommands: []*cli.Command{exprSimplifyCommand(), exprEvalCommand()},
	}
}

func exprSimplifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "simplify",
		Usage: "print a formula simplified without changing its value for any input",
		UsageText: "evogp expr simplify [--domain] [--format infix|prefix|latex|go|sympy|json|dot] FORMULA\n\n" +
			"Examples:\n" +
			"   evogp expr simplify \"((q+g)%q - u) * (d % (q + (d+g-u)%(q*q)))\"\n" +
			"   evogp expr simplify --format go \"g*d*1 + 0*q\"\n" +
			"   evogp expr simplify --domain \"q % d * (g % g) % (q - q)\"      # prints q % d\n" +
			"   evogp expr simplify \"g*d - 0*q\" --domain --format latex      # flags may follow the formula\n" +
			"   evogp expr simplify -- \"-g*d\"                               # a formula starting with '-' follows --\n" +
			"   evogp expr simplify --routing --domain \"m + W % (C - C)\"       # a routing tree R(j, p) (SPEC §16)",
		Description: expr.SimplifyHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "infix",
				Usage: "output format: " + strings.Join(expr.Formats(), " | ")},
			&cli.BoolFlag{Name: "domain",
				Usage: "simplify for the simulator's inputs (d>0, q≥0, u≥1, g≥1, no overflow), not for every float64"},
			routingFlag(),
		},
		Action: func(c *cli.Context) error {
			t, err := formulaArg(c)
			if err != nil {
				return err
			}
			out, err := expr.SimplifiedText(t, c.String("format"), c.Bool("domain"))
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.App.Writer, out)
			return err
		},
	}
}

func exprEvalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "evaluate a formula at given values of d, q, u, g",
		UsageText: "evogp expr eval [--routing] FORMULA NAME=VALUE...\n\n" +
			"Examples:\n" +
			"   evogp expr eval \"g*d\" d=2.5 q=0 u=1 g=8      # prints 20\n" +
			"   evogp expr eval --routing \"m + 2*W\" m=1.5 W=0.25   # a routing formula: prints 2",
		Description: expr.AssignmentsHelp,
		Flags:       []cli.Flag{routingFlag()},
		Action: func(c *cli.Context) error {
			out, err := expr.EvalArgsIn(catalogueOf(c), c.Args().Slice())
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.App.Writer, out)
			return err
		},
	}
}

// formulaArg parses the command's arguments joined by spaces, so an
// unquoted formula split by the shell still works. Flags may also follow
// the formula, as with the other commands (urfave/cli stops reading flags
// at the first argument): after the first word, a word that looks like a
// flag (-x, --name) is applied as one, and an unknown one is an error that
// says how to write a formula that starts with '-'.
func formulaArg(c *cli.Context) (*expr.Tree, error) {
	if c.NArg() == 0 {
		return nil, fmt.Errorf("%s: missing FORMULA", c.Command.FullName())
	}
	args := c.Args().Slice()
	rest, err := trailingFlags(c, args[1:], cliargs.LooksLikeFlag)
	if err != nil {
		name := strings.TrimPrefix(c.Command.HelpName, c.App.Name+" ")
		return nil, fmt.Errorf("%w (a formula that starts with '-' goes after --, as in evogp %s -- \"-g*d\")", err, name)
	}
	return expr.ParseFormulaIn(catalogueOf(c), strings.Join(append(args[:1:1], rest...), " "))
}

// routingFlag makes expr simplify and expr eval read a routing formula
// R(j, p) over the routing terminals (SPEC §16) instead of a priority
// function.
func routingFlag() cli.Flag {
	return &cli.BoolFlag{Name: "routing", Usage: "the formula is a routing tree R(j, p) over the routing terminals (m, W, x, f, n, C, N, h, o and d, q, u, g, a, r, w)"}
}

// catalogueOf is the catalogue --routing chooses.
func catalogueOf(c *cli.Context) expr.Catalogue {
	if c.Bool("routing") {
		return expr.Routing
	}
	return expr.Ranking
}

package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
)

// helpExamples returns the example command lines of a help text: the
// lines after an "Example:" or "Examples:" line up to a blank line, each
// starting with "evogp" (a trailing backslash continues a line; a "# …"
// comment and a "| …" or "> …" shell tail are dropped).
func helpExamples(text string) []string {
	var out []string
	in, cont := false, ""
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case l == "Example:" || l == "Examples:":
			in = true
			continue
		case l == "":
			in = false
			continue
		case !in || (cont == "" && !strings.HasPrefix(l, "evogp ")):
			continue
		}
		if i := strings.Index(l, " # "); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		if strings.HasSuffix(l, `\`) {
			cont += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		l = cont + l
		cont = ""
		for _, tail := range []string{" | ", " > "} {
			if i := strings.Index(l, tail); i >= 0 {
				l = l[:i]
			}
		}
		out = append(out, strings.Join(strings.Fields(l), " "))
	}
	return out
}

// checkExample is the action every command gets in TestHelpExamplesParse:
// the arguments the real action would read must be valid (trailing flags,
// config overrides and sweeps, formulas, scheduler specs) without running
// anything.
func checkExample(tmp string) cli.ActionFunc {
	return func(c *cli.Context) error {
		name := strings.TrimPrefix(c.Command.HelpName, c.App.Name+" ")
		var pos []string
		var err error
		switch name {
		case "expr eval":
			if c.NArg() == 0 {
				return fmt.Errorf("missing formula")
			}
			_, err := expr.EvalAssignedIn(catalogueOf(c), c.Args().First(), c.Args().Tail())
			return err
		case "expr simplify":
			_, err := formulaArg(c)
			return err
		}
		if pos, err = positionalArgs(c); err != nil {
			return err
		}
		switch name {
		case "learn", "search", "data gen":
			if c.Bool("multirun") {
				fixed, axes, err := experiment.ParseSweepArgs(pos)
				if err != nil {
					return err
				}
				_, err = experiment.PrepareSweep(filepath.Join(tmp, fmt.Sprint(len(pos), c.String("config"), len(axes))+"-"+strings.Join(fixed, "")), experiment.SweepSpec{Config: c.String("config"), Fixed: fixed, Axes: axes}, experiment.Provenance{})
				return err
			}
			cfg, err := configs.Default(), error(nil)
			if ext := filepath.Ext(c.String("config")); ext != ".yaml" && ext != ".yml" { // a user's own file is not here
				cfg, err = configs.Load(c.String("config"))
			}
			if err == nil {
				_, err = cfg.Override(pos...)
			}
			return err
		case "simulate":
			if _, source, ok := strings.Cut(c.String("scheduler"), "="); ok && strings.Contains(source, "/") {
				return nil // a run directory of the example's own
			}
			_, err := experiment.NewPolicy(c.String("scheduler"), c.String("priority"), false)
			return err
		case "eval", "pressure":
			for _, entry := range strings.Split(c.String("schedulers"), ",") {
				if _, source, ok := strings.Cut(entry, "="); ok && (strings.Contains(source, "/") || strings.HasSuffix(source, ".json")) {
					continue // a run directory of the example's own
				}
				if _, err := experiment.ParsePolicies(entry, false, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// stubActions gives every command below cmds the action act and collects
// the help texts of all of them.
func stubActions(cmds []*cli.Command, act cli.ActionFunc, texts *[]string) {
	for _, c := range cmds {
		*texts = append(*texts, c.UsageText, c.Description)
		if c.Action != nil {
			c.Action = act
		}
		stubActions(c.Subcommands, act, texts)
	}
}

// Every example that `evogp --help` and the commands' --help show parses:
// the command exists, its flags are known and required ones given, and
// the arguments the command reads (config overrides, sweep axes, formulas,
// scheduler specs) are valid; nothing runs. A wrong example fails.
func TestHelpExamplesParse(t *testing.T) {
	app := newApp()
	texts := []string{app.Description}
	var ran []string
	check := checkExample(t.TempDir())
	stubActions(app.Commands, func(c *cli.Context) error {
		ran = append(ran, c.Command.HelpName)
		return check(c)
	}, &texts)
	var examples []string
	for _, text := range texts {
		examples = append(examples, helpExamples(text)...)
	}
	if len(examples) < 25 {
		t.Fatalf("only %d examples found: %q", len(examples), examples)
	}
	for _, ex := range examples {
		ran = ran[:0]
		words := shellWords(ex)
		var out, errOut strings.Builder
		app.Writer, app.ErrWriter = &out, &errOut
		setInvocation(app, words, time.Time{})
		if err := app.Run(words); err != nil {
			t.Errorf("%s: %v", ex, err)
			continue
		}
		if len(ran) != 1 {
			t.Errorf("%s: ran %v, want one command (printed %q)", ex, ran, out.String())
		}
	}
}

// The checker refuses what a user would be refused: an unknown flag, a
// bad override or sweep, a bad formula or scheduler.
func TestHelpExamplesCheckerFails(t *testing.T) {
	app := newApp()
	var texts []string
	stubActions(app.Commands, checkExample(t.TempDir()), &texts)
	for _, bad := range []string{
		"evogp learn --nosuch",
		"evogp learn gp.omega=0.3",
		"evogp learn -m --config smoke objective.omega=0,1",
		"evogp expr simplify g*d+",
		"evogp expr eval g*d d=1",
		"evogp simulate --dataset d --scheduler nosuch",
		"evogp eval --dataset d --out o --schedulers tiresias,x+y+z",
		"evogp report DIR --bogus",
		"evogp data gen --out d generator.nosuch=1",
		"evogp pressure --config load --out o --schedulers nosuch",
	} {
		app.Writer, app.ErrWriter = &strings.Builder{}, &strings.Builder{}
		if err := app.Run(shellWords(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	got := helpExamples("Usage: evogp x DIR\n\nExamples:\n   evogp a --b 1 \\\n     --c 2   # note\n   evogp d | dot -Tsvg > f.svg\n   source <(evogp e)\n\nevogp f\n")
	if strings.Join(got, ";") != "evogp a --b 1 --c 2;evogp d" {
		t.Errorf("helpExamples: %q", got)
	}
}

package expr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseFormula parses a ranking formula the user typed; the error names
// the formula (Quote) and says why it does not parse.
func ParseFormula(s string) (*Tree, error) { return ParseFormulaIn(Ranking, s) }

// ParseFormulaIn parses a formula of catalogue c the user typed. A
// ranking formula that fails only because it uses routing terminals (m,
// W, x, …) says so, since the routing tree is the likelier intent.
func ParseFormulaIn(c Catalogue, s string) (*Tree, error) {
	t, err := c.Parse(s)
	if err != nil {
		if _, rerr := Routing.Parse(s); c == Ranking && rerr == nil {
			return nil, fmt.Errorf("formula %s: %w (a routing formula? add --routing)", Quote(s, err), err)
		}
		return nil, fmt.Errorf("formula %s: %w", Quote(s, err), err)
	}
	return t, nil
}

// ParseAssignments reads NAME=VALUE arguments for terminals of t's
// catalogue (d, q, u, g, a, … of the ranking one, or W, m, … of the
// routing one; indexed by their Op) and checks that every
// terminal t uses has one, so a typo cannot silently evaluate at 0. A
// terminal given twice, an unknown name or a value that is not a number is
// an error naming the argument.
func ParseAssignments(args []string, t *Tree) (Vars, error) {
	var vals Vars
	var set Terminals
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			return vals, fmt.Errorf("argument %q: want NAME=VALUE with NAME a terminal such as d, q, u, g", a)
		}
		op, ok := t.Catalogue().VariableByName(strings.TrimSpace(name))
		if !ok {
			_, err := t.Catalogue().ParseTerminals([]string{name})
			return vals, fmt.Errorf("argument %q: unknown variable %q (%w)", a, name, err)
		}
		if set.Has(op) {
			return vals, fmt.Errorf("argument %q: %s given twice", a, name)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return vals, fmt.Errorf("argument %q: value: %w", a, err)
		}
		vals[op], set = v, set|t.Catalogue().Set(op)
	}
	if missing := t.Terminals().Minus(set); missing.Len() != 0 {
		names := missing.Names()
		return vals, fmt.Errorf("formula uses %s but no value was given (add %s=VALUE)", strings.Join(names, ", "), names[0])
	}
	return vals, nil
}

// EvalAssigned is the value of the formula s at the NAME=VALUE arguments
// args (ParseAssignments), formatted as the shortest decimal that reads
// back as the same float64.
func EvalAssigned(s string, args []string) (string, error) { return EvalAssignedIn(Ranking, s, args) }

// EvalAssignedIn is EvalAssigned for a formula of catalogue c.
func EvalAssignedIn(c Catalogue, s string, args []string) (string, error) {
	t, err := ParseFormulaIn(c, s)
	if err != nil {
		return "", err
	}
	vals, err := ParseAssignments(args, t)
	if err != nil {
		return "", err
	}
	return strconv.FormatFloat(Compile(t).EvalVars(&vals), 'g', -1, 64), nil
}

// EvalArgs is `evogp expr eval FORMULA NAME=VALUE...`: the value of the
// formula args[0] at the assignments args[1:] (EvalAssigned).
func EvalArgs(args []string) (string, error) { return EvalArgsIn(Ranking, args) }

// EvalArgsIn is EvalArgs for a formula of catalogue c (`evogp expr eval
// --routing`).
func EvalArgsIn(c Catalogue, args []string) (string, error) {
	if len(args) < 1 {
		return "", errors.New("expr eval: missing FORMULA (usage: evogp expr eval FORMULA d=VALUE ...)")
	}
	return EvalAssignedIn(c, args[0], args[1:])
}

package expr

import "strings"

// SimplifiedText is t simplified — for every float64 input (Simplify), or
// with domain for the simulator's inputs only (SimplifyOn DefaultDomain) —
// never longer than t (SimplifyForPrint), in format (Format), without a
// trailing newline.
func SimplifiedText(t *Tree, format string, domain bool) (string, error) {
	simplify := Simplify
	if domain {
		simplify = func(t *Tree) *Tree { return SimplifyOn(t, DefaultDomain()) }
	}
	out, err := Format(SimplifyForPrint(t, simplify), format)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(out, "\n"), nil
}

package expr

import (
	"errors"
	"strings"
	"testing"
)

// issue 32 item 11: a formula nested too deep gives an error of bounded
// size that shows the place of the problem, whatever the formula's length.
func TestQuoteBoundsDeepNestingErrors(t *testing.T) {
	for _, depth := range []int{1500, 20_000, 100_000} {
		src := strings.Repeat("(", depth) + "d" + strings.Repeat(")", depth)
		_, err := Parse(src)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "nested more than") {
			t.Fatalf("depth %d: got %v", depth, err)
		}
		q := Quote(src, err)
		if len(q) > 200 {
			t.Errorf("depth %d: quote is %d bytes: %.100s…", depth, len(q), q)
		}
		if !strings.Contains(q, "excerpt around column 1002") || !strings.Contains(q, "characters") {
			t.Errorf("depth %d: %s does not give the column and length", depth, q)
		}
	}
	// Short formulas are quoted whole, as before.
	if got := Quote("d +", errors.New("x")); got != `"d +"` {
		t.Errorf("short formula: %s", got)
	}
	// A problem at the end of a long formula is shown with its context.
	long := strings.Repeat("d + ", 100) + "x"
	_, err := Parse(long)
	q := Quote(long, err)
	if !strings.Contains(q, `d + x"`) || !strings.HasPrefix(q, `"…`) {
		t.Errorf("problem at the end: %s", q)
	}
	// Multi-byte characters are never cut in half.
	wide := strings.Repeat("é", 500)
	if q := Quote(wide, &ParseError{Col: 250}); !strings.Contains(q, "éé") || strings.ContainsRune(q, '\uFFFD') {
		t.Errorf("multi-byte: %s", q)
	}
}

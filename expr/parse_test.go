package expr

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseShapes(t *testing.T) {
	for _, tc := range []struct{ in, prefix string }{
		{"d", "d"},
		{" ( d ) ", "d"},
		{"d+q*g", "(+ d (* q g))"},
		{"(d+q)*g", "(* (+ d q) g)"},
		{"d-q-g", "(- (- d q) g)"},
		{"d%q%g", "(% (% d q) g)"},
		{"d/q", "(% d q)"},
		{"d*q/g", "(% (* d q) g)"},
		{"-d", "(- 0 d)"},
		{"-d*q", "(* (- 0 d) q)"},
		{"-(d*q)", "(- 0 (* d q))"},
		{"--d", "(- 0 (- 0 d))"},
		{"-3*d", "(* -3 d)"},
		{"--3", "3"},
		{"-0", "-0"},
		{"2 - -3", "(- 2 -3)"},
		{"d*-q", "(* d (- 0 q))"},
		{".5 + 1e-3 + 2.5E+2 + 7.", "(+ (+ (+ 0.5 0.001) 250) 7)"},
		{"\td\n+\r\nq", "(+ d q)"},
		{eq17, "(* (- (% (+ q g) q) u) (% d (+ q (% (- (+ d g) u) (* q q)))))"},
	} {
		tr, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got, _ := Format(tr, "prefix"); got != tc.prefix {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.prefix)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"", `column 1: expected operand, found end of formula`},
		{"   ", `column 4: expected operand, found end of formula`},
		{"d +", `column 4: expected operand, found end of formula`},
		{"(d + )", `column 6: expected operand, found ")"`},
		{"(q + )", `column 6: expected operand, found ")"`},
		{"d q", `column 3: expected operator or end of formula, found "q"`},
		{"d)", `column 2: expected operator or end of formula, found ")"`},
		{"(d", `column 3: expected ")", found end of formula`},
		{"z + d", `column 1: unknown variable "z" (want one of d, q, u, g, a, r, w, f, n, e, s, v)`},
		{"x + d", `column 1: unknown variable "x" in a ranking tree: it is a routing terminal (want one of d, q, u, g, a, r, w, f, n, e, s, v)`},
		{"d + dq", `column 5: unknown variable "dq" (want one of d, q, u, g, a, r, w, f, n, e, s, v)`},
		{"d + 1e999", `column 5: number 1e999 is out of range`},
		{"d + .", `column 5: malformed number "."`},
		{"d $ q", `column 3: unexpected character '$'`},
		{"d * * q", `column 5: expected operand, found "*"`},
		// Columns count characters: the two no-break spaces are 2 bytes each.
		{"d\u00a0\u00a0+ )", `column 6: expected operand, found ")"`},
	} {
		_, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded", tc.in)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Parse(%q) error %q, want %q", tc.in, err, tc.want)
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Col < 1 {
			t.Errorf("Parse(%q) error %T is not a *ParseError with a column", tc.in, err)
		}
	}
	deep := strings.Repeat("(", 5000) + "d" + strings.Repeat(")", 5000)
	if _, err := Parse(deep); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("5000 nested parentheses: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustParse of a bad formula did not panic")
		}
	}()
	MustParse("d +")
}

func TestParsePrintRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 3000 {
		tr := randTree(rng, 1+rng.IntN(7))
		for _, x := range []*Tree{tr, Simplify(tr)} {
			s := x.String()
			back, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%q) from %v: %v", s, x, err)
			}
			if !back.Equal(x) {
				p1, _ := Format(x, "prefix")
				p2, _ := Format(back, "prefix")
				t.Fatalf("round trip of %s: %s became %s", s, p1, p2)
			}
		}
	}
	// Constants that need all 17 digits, subnormals and signed zeros.
	for _, v := range []float64{0.1, 1.0 / 3, 5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64, math.Copysign(0, -1), 1e21, 123456789012345678} {
		x := Binary(OpSub, Terminal(OpD), Constant(v))
		if back := MustParse(x.String()); !back.Equal(x) {
			t.Errorf("constant %v: %s parsed back as %s", v, x, back)
		}
	}
}

// FuzzParse: Parse never panics, and whatever it accepts prints to a
// string that parses back to the same tree; every printer accepts it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		eq17, "g*d", "-d", "--3", "2 - -3", "d/q%g", "(((d)))", "1e308*10",
		".5e-3", "d +", "(q + )", "x", "\u00a0d", "-0", "d % (q - q)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Col < 1 {
				t.Fatalf("Parse(%q): error without a column: %v", s, err)
			}
			return
		}
		back, err := Parse(tr.String())
		if err != nil {
			t.Fatalf("Parse(%q) printed %q which does not parse: %v", s, tr.String(), err)
		}
		if !back.Equal(tr) {
			t.Fatalf("Parse(%q): %q reparsed differently", s, tr.String())
		}
		if tr.Depth() > 64 {
			return // the printers below recurse; deep trees are checked above
		}
		for _, name := range Formats() {
			if _, err := Format(tr, name); err != nil {
				t.Fatalf("Format(%q, %s): %v", s, name, err)
			}
		}
	})
}

package expr

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// refStyle is the infix printer as it was before issue 32 item 15, kept as
// the reference: it builds every parenthesised operand (and every call's
// operands) as a string first, so a right-nested formula costs time
// quadratic in its size.
type refStyle struct {
	op       func(Op) string
	call     func(a, b string) string
	num      func(v float64) string
	paren    func(s string) string
	negParen bool
	varName  func(Op) string
}

func refInfix() refStyle {
	return refStyle{op: func(o Op) string { return " " + o.String() + " " }, num: number,
		paren: func(s string) string { return "(" + s + ")" }, varName: Op.String}
}

func refLatex() refStyle {
	st := latexStyle(Ranking) // its op and num, which item 15 did not change
	return refStyle{op: st.op, num: st.num, negParen: true, varName: Op.String,
		call:  func(a, b string) string { return `\operatorname{pdiv}\left(` + a + ", " + b + `\right)` },
		paren: func(s string) string { return `\left(` + s + `\right)` }}
}

func refSympy() refStyle {
	st := sympyStyle(Ranking)
	return refStyle{op: st.op, num: number, varName: Op.String,
		call:  func(a, b string) string { return "pdiv(" + a + ", " + b + ")" },
		paren: func(s string) string { return "(" + s + ")" }}
}

func (st refStyle) prec(p *pnode) int {
	switch p.op {
	case OpAdd, OpSub:
		return 1
	case OpMul:
		return 2
	case OpDiv:
		if st.call == nil {
			return 2
		}
	}
	return 3
}

func (st refStyle) format(t *Tree) string {
	p, _ := toPtr(t.nodes, 0)
	var b strings.Builder
	st.write(&b, p)
	return b.String()
}

func (st refStyle) write(b *strings.Builder, p *pnode) {
	switch {
	case p.op.IsTerminal():
		b.WriteString(st.varName(p.op))
		return
	case p.op == OpConst:
		b.WriteString(st.num(p.val))
		return
	}
	if p.op == OpDiv && st.call != nil {
		b.WriteString(st.call(st.sub(p.l), st.sub(p.r)))
		return
	}
	pp := st.prec(p)
	st.operand(b, p.l, st.prec(p.l) < pp)
	b.WriteString(st.op(p.op))
	st.operand(b, p.r, st.prec(p.r) <= pp)
}

func (st refStyle) operand(b *strings.Builder, p *pnode, paren bool) {
	if st.negParen && p.op == OpConst && math.Signbit(p.val) {
		paren = true
	}
	if !paren {
		st.write(b, p)
		return
	}
	b.WriteString(st.paren(st.sub(p)))
}

func (st refStyle) sub(p *pnode) string {
	var b strings.Builder
	st.write(&b, p)
	return b.String()
}

// chain is a right-nested formula of n terms, x1 op (x2 op (… op xn)),
// with the operators and leaves drawn by rng: the shape that made the old
// printer quadratic.
func chain(rng *rand.Rand, n int) *Tree {
	leaves := []*Tree{Terminal(OpD), Terminal(OpQ), Terminal(OpU), Terminal(OpG), Constant(2), Constant(-1.5), Constant(math.Copysign(0, -1))}
	t := leaves[rng.IntN(len(leaves))]
	for range n - 1 {
		t = Binary(OpAdd+Op(rng.IntN(4)), leaves[rng.IntN(len(leaves))], t)
	}
	return t
}

// Differential test: the linear printer gives byte for byte what the
// reference printer gives, in the three infix-like formats, on random
// trees of every shape and on long right-nested chains.
func TestInfixPrinterMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	var trees []*Tree
	for range 3000 {
		trees = append(trees, randTree(rng, 1+rng.IntN(8)))
	}
	for range 200 {
		trees = append(trees, Grow(rng, 2+rng.IntN(7), GenSettings{Constants: true, ConstMin: -3, ConstMax: 3, ConstDigits: 1}))
	}
	for range 20 {
		trees = append(trees, chain(rng, 1+rng.IntN(300)))
	}
	trees = append(trees, MustParse("d + (q + (u + g))"), MustParse("d - (q - -3)"), MustParse("(d % (q % u)) % g"))
	for _, tr := range trees {
		for _, c := range []struct {
			name string
			ref  refStyle
			got  func(*Tree) string
		}{
			{"infix", refInfix(), func(t *Tree) string { return t.String() }},
			{"latex", refLatex(), func(t *Tree) string { s, _ := Format(t, "latex"); return s }},
			{"sympy", refSympy(), func(t *Tree) string { s, _ := sympyExpr(t, nil); return s }},
		} {
			if got, want := c.got(tr), c.ref.format(tr); got != want {
				t.Fatalf("%s of %v:\n got  %s\n want %s", c.name, tr.nodes, got, want)
			}
		}
		// Simplified trees are what `expr simplify` prints.
		s := Simplify(tr)
		if got, want := s.String(), refInfix().format(s); got != want {
			t.Fatalf("simplified %v: got %s, want %s", tr, got, want)
		}
	}
}

// issue 32 item 15: `expr simplify` on d + d + … + d (simplified to the
// right-nested d + (d + (… + 2 × d))) took 0.12 s at 5k terms, 2.4 s at
// 20k and 16 s at 60k: the old printer built each parenthesised operand
// as a new string, so it copied O(n²) bytes. Printing is now linear. The
// test measures what the algorithm does, not the machine: the bytes
// allocated by simplify + print at 10k and 40k terms, which a linear
// printer keeps near 4× apart and the quadratic reference printer
// (refInfix) does not (checked below, so the measure can fail). Wall time
// on this deep a tree is not linear even for a linear printer (the
// recursion's stack outgrows the caches), and on a loaded machine it is
// noise.
func TestSimplifyPrintsLongSumsInLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 40k-term formulas")
	}
	allocated := func(n int, print func(*Tree)) uint64 {
		tr, err := Parse(strings.Repeat("d + ", n-1) + "d")
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		print(Simplify(tr))
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	ours := func(s *Tree) {
		for _, f := range []string{"infix", "latex", "sympy"} {
			if _, err := Format(s, f); err != nil {
				t.Fatal(err)
			}
		}
	}
	small, large := allocated(10_000, ours), allocated(40_000, ours)
	t.Logf("simplify + print: 10k terms %d bytes, 40k terms %d bytes (ratio %.2f)", small, large, float64(large)/float64(small))
	if ratio := float64(large) / float64(small); ratio > 6 {
		t.Errorf("4× the terms allocate %.1f× the bytes: not linear", ratio)
	}
	reference := func(s *Tree) { _ = refInfix().format(s) }
	if small, large := allocated(2_500, reference), allocated(10_000, reference); float64(large)/float64(small) <= 6 {
		t.Errorf("the quadratic reference printer allocates only %.1f× the bytes for 4× the terms: the measure cannot tell", float64(large)/float64(small))
	}
}

// BenchmarkInfixPrint compares the linear printer with the reference on a
// 20k-term right-nested sum (the simplified d + d + … + d).
func BenchmarkInfixPrint(b *testing.B) {
	tr := Simplify(MustParse(strings.Repeat("d + ", 19_999) + "d"))
	b.Run("linear", func(b *testing.B) {
		for b.Loop() {
			_ = tr.String()
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			_ = refInfix().format(tr)
		}
	})
}

package expr

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// maxNesting bounds parenthesis and unary-minus nesting so that hostile
// input cannot exhaust the stack.
const maxNesting = 1000

// ParseError is a syntax error in a formula. Col is the 1-based column
// (counted in characters, not bytes) where the problem was found.
type ParseError struct {
	Col int
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// Parse reads an infix formula:
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/" | "%") unary }
//	unary   = "-" unary | primary
//	primary = number | "d" | "q" | "u" | "g" | "(" expr ")"
//
// Binary operators associate to the left; "*" binds tighter than "+" and
// "-"; unary minus binds tightest (so -d*q is (0-d)*q). Both "/" and "%"
// mean protected division (a if b == 0, else a/b). A number is a decimal
// literal such as 2, 0.5, .5 or 1e-3 and must be finite. Unary minus on a
// number gives the negated constant (-3 is the constant −3, --3 is 3); on
// anything else it gives 0 − x, which equals −x except that 0 − (+0) is +0.
// Whitespace is ignored. Errors are *ParseError values naming the column.
func Parse(s string) (*Tree, error) { return parseIn(Ranking, s) }

// parseIn is Parse over the terminals of catalogue c.
func parseIn(c Catalogue, s string) (*Tree, error) {
	p := &parser{src: s, cat: c}
	p.next()
	if p.err != nil {
		return nil, p.err
	}
	root := p.expr(0)
	if p.err != nil {
		return nil, p.err
	}
	if p.tok.kind != tokEOF {
		return nil, p.errorf("expected operator or end of formula, found %s", p.tok.describe())
	}
	return &Tree{nodes: flatten(root, make([]node, 0, 16)), cat: c}, nil
}

// MustParse is Parse for formulas known to be valid; it panics on error.
func MustParse(s string) *Tree {
	t, err := Parse(s)
	if err != nil {
		panic(fmt.Sprintf("expr.MustParse(%q): %v", s, err))
	}
	return t
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokVar
	tokOp // + - * / %
	tokLParen
	tokRParen
)

type token struct {
	kind tokKind
	text string
	col  int
	op   Op      // tokVar: the terminal; tokOp: the operator
	val  float64 // tokNum
}

func (t token) describe() string {
	if t.kind == tokEOF {
		return "end of formula"
	}
	return strconv.Quote(t.text)
}

type parser struct {
	cat Catalogue // whose terminals the formula may name
	src string
	pos int // byte offset of the next unread character
	col int // column of the next unread character, 1-based
	tok token
	err error
}

func (p *parser) errorf(format string, a ...any) error {
	if p.err == nil {
		p.err = &ParseError{Col: p.tok.col, Msg: fmt.Sprintf(format, a...)}
	}
	return p.err
}

// next reads the next token into p.tok.
func (p *parser) next() {
	for p.pos < len(p.src) {
		r, w := utf8.DecodeRuneInString(p.src[p.pos:])
		if !unicode.IsSpace(r) {
			break
		}
		p.pos += w
		p.col++
	}
	start, col := p.pos, p.col+1
	if p.pos >= len(p.src) {
		p.tok = token{kind: tokEOF, col: col}
		return
	}
	r, w := utf8.DecodeRuneInString(p.src[p.pos:])
	advance := func(n int) {
		p.pos += n
		p.col += utf8.RuneCountInString(p.src[start:p.pos])
	}
	switch {
	case r == '(':
		advance(w)
		p.tok = token{kind: tokLParen, text: "(", col: col}
	case r == ')':
		advance(w)
		p.tok = token{kind: tokRParen, text: ")", col: col}
	case r == '+' || r == '-' || r == '*' || r == '/' || r == '%':
		advance(w)
		op := OpDiv // "/" and "%"
		switch r {
		case '+':
			op = OpAdd
		case '-':
			op = OpSub
		case '*':
			op = OpMul
		}
		p.tok = token{kind: tokOp, text: string(r), col: col, op: op}
	case r == '.' || (r >= '0' && r <= '9'):
		n := scanNumber(p.src[p.pos:])
		text := p.src[p.pos : p.pos+n]
		advance(n)
		p.tok = token{kind: tokNum, text: text, col: col}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) {
			var ne *strconv.NumError
			if errors.As(err, &ne) && ne.Err == strconv.ErrRange || math.IsInf(v, 0) {
				p.errorf("number %s is out of range", text)
			} else {
				p.errorf("malformed number %s", strconv.Quote(text))
			}
			return
		}
		p.tok.val = v
	case unicode.IsLetter(r) || r == '_':
		n := 0
		for n < len(p.src)-p.pos {
			r2, w2 := utf8.DecodeRuneInString(p.src[p.pos+n:])
			if !(unicode.IsLetter(r2) || unicode.IsDigit(r2) || r2 == '_') {
				break
			}
			n += w2
		}
		text := p.src[p.pos : p.pos+n]
		advance(n)
		p.tok = token{kind: tokVar, text: text, col: col}
		if op, ok := p.cat.VariableByName(text); ok {
			p.tok.op = op
		} else if _, other := p.cat.other().VariableByName(text); other {
			p.errorf("%s", p.cat.unknownTerminal(text))
		} else {
			p.errorf("unknown variable %s (want one of %s)", strconv.Quote(text), p.cat.variableNames())
		}
	default:
		advance(w)
		p.tok = token{kind: tokEOF, text: string(r), col: col}
		p.errorf("unexpected character %s", strconv.QuoteRune(r))
	}
}

// scanNumber returns the length of the longest prefix of s shaped like a
// decimal literal: digits, an optional fraction, an optional exponent.
func scanNumber(s string) int {
	i := 0
	digits := func() {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	digits()
	if i < len(s) && s[i] == '.' {
		i++
		digits()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			i = j
			digits()
		}
	}
	return i
}

// expr parses a sum at nesting level depth.
func (p *parser) expr(depth int) *pnode {
	l := p.term(depth)
	for p.err == nil && p.tok.kind == tokOp && (p.tok.op == OpAdd || p.tok.op == OpSub) {
		op := p.tok.op
		p.next()
		r := p.term(depth)
		l = &pnode{op: op, l: l, r: r}
	}
	return l
}

func (p *parser) term(depth int) *pnode {
	l := p.unary(depth)
	for p.err == nil && p.tok.kind == tokOp && (p.tok.op == OpMul || p.tok.op == OpDiv) {
		op := p.tok.op
		p.next()
		r := p.unary(depth)
		l = &pnode{op: op, l: l, r: r}
	}
	return l
}

func (p *parser) unary(depth int) *pnode {
	if p.err != nil {
		return nil
	}
	if depth > maxNesting {
		p.errorf("formula nested more than %d levels deep", maxNesting)
		return nil
	}
	if p.tok.kind == tokOp && p.tok.op == OpSub {
		p.next()
		x := p.unary(depth + 1)
		if p.err != nil {
			return nil
		}
		if x.op == OpConst {
			return konst(-x.val)
		}
		return &pnode{op: OpSub, l: konst(0), r: x}
	}
	return p.primary(depth)
}

func (p *parser) primary(depth int) *pnode {
	if p.err != nil {
		return nil
	}
	switch p.tok.kind {
	case tokNum:
		n := konst(p.tok.val)
		p.next()
		return n
	case tokVar:
		n := &pnode{op: p.tok.op}
		p.next()
		return n
	case tokLParen:
		p.next()
		x := p.expr(depth + 1)
		if p.err != nil {
			return nil
		}
		if p.tok.kind != tokRParen {
			p.errorf("expected \")\", found %s", p.tok.describe())
			return nil
		}
		p.next()
		return x
	}
	p.errorf("expected operand, found %s", p.tok.describe())
	return nil
}

package expr

import "math"

// inlineStack is the evaluation-stack size Program.Eval keeps on the
// goroutine stack. Trees of depth ≤ inlineStack−1 (every GP tree: the hard
// limit is 7) never touch the heap; deeper parsed trees fall back to a heap
// buffer per call.
const inlineStack = 32

// instr is one postfix instruction: push a terminal or a constant, or pop
// two operands and push op(a, b).
type instr struct {
	op  Op
	val float64
}

// Program is a tree compiled to a flat postfix program for fast repeated
// evaluation. A Program is immutable after Compile, and Eval uses only
// storage local to the call, so one Program may be evaluated by many
// goroutines at once.
type Program struct {
	code  []instr
	stack int // slots needed: max operands live at once, see Compile
}

// Compile translates t into postfix form. The program computes exactly
// Tree.Eval (same operations, same order, same rounding). An empty tree
// compiles to a program that returns NaN.
func Compile(t *Tree) *Program {
	p := &Program{}
	if t.Size() == 0 {
		return p
	}
	p.code = make([]instr, 0, len(t.nodes))
	// Postfix order of a prefix-encoded tree: emit the operands, then the
	// operator. live counts the values on the evaluation stack.
	live, peak := 0, 0
	var emit func(i int) int
	emit = func(i int) int {
		n := t.nodes[i]
		if !n.op.IsBinary() {
			p.code = append(p.code, instr(n))
			live++
			peak = max(peak, live)
			return i + 1
		}
		j := emit(i + 1)
		k := emit(j)
		p.code = append(p.code, instr{op: n.op})
		live--
		return k
	}
	emit(0)
	// Eval keeps the top of the stack in a register and spills the others,
	// plus one dead slot for the (meaningless) top before the first push.
	p.stack = peak
	return p
}

// Len is the number of instructions (equal to the tree's Size).
func (p *Program) Len() int { return len(p.code) }

// Eval computes the program's value at (d, q, u, g), every other terminal
// being 0. It does not allocate for programs compiled from trees of depth
// < 32 and is safe for concurrent use.
func (p *Program) Eval(d, q, u, g float64) float64 {
	return p.EvalVars(&Vars{d, q, u, g})
}

// EvalVars computes the program's value with terminal op bound to
// vars[op]. It does not allocate for programs compiled from trees of depth
// < 32 and is safe for concurrent use.
func (p *Program) EvalVars(vars *Vars) float64 {
	if len(p.code) == 0 {
		return math.NaN()
	}
	if p.stack <= inlineStack {
		var st [inlineStack]float64
		return run(p.code, st[:], vars)
	}
	return run(p.code, make([]float64, p.stack), vars)
}

// run executes code with the operand stack st (len(st) ≥ the program's
// stack need). The top of the stack lives in top; st[0:sp] holds the values
// below it, st[0] being the garbage "top" before the first push.
func run(code []instr, st []float64, vars *Vars) float64 {
	var top float64
	sp := 0
	for _, in := range code {
		switch op := in.op; {
		case op < OpConst:
			st[sp] = top
			sp++
			top = vars[op&(MaxVariables-1)]
		case op == OpConst:
			st[sp] = top
			sp++
			top = in.val
		case op == OpAdd:
			sp--
			top = st[sp] + top
		case op == OpSub:
			sp--
			top = st[sp] - top
		case op == OpMul:
			sp--
			top = float64(st[sp] * top) // explicit rounding: forbids FMA fusion
		default: // OpDiv
			sp--
			if top != 0 {
				top = st[sp] / top
			} else {
				top = st[sp]
			}
		}
	}
	return top
}

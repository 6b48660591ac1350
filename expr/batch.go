package expr

import "math"

// Columns binds each terminal to a column of values: point i of a batch has
// terminal op equal to Columns[op][i]. Columns a program does not read may
// be nil.
type Columns [MaxVariables][]float64

// Batch is the scratch memory of EvalColumns: reuse one per goroutine to
// evaluate without allocating. The zero value is ready to use; a Batch is
// not safe for concurrent use.
type Batch struct {
	free  [][]float64 // buffers not on the stack
	stack []operand
}

// operand is one value of the evaluation stack: a column of n values,
// owned (a scratch buffer, which the next operation may overwrite) or
// borrowed (a terminal's column, read only).
type operand struct {
	v     []float64
	owned bool
}

func (b *Batch) buffer(n int) []float64 {
	if k := len(b.free); k > 0 {
		buf := b.free[k-1]
		b.free = b.free[:k-1]
		if cap(buf) >= n {
			return buf[:n]
		}
	}
	return make([]float64, n)
}

// EvalColumns evaluates the program at n points at once: out[i] becomes
// EvalVars at the point whose terminal op is cols[op][i], bit for bit (the
// same operations in the same order, each rounded to float64). It runs one
// instruction over all points before the next, so the interpreter's
// dispatch is paid once per instruction rather than once per point.
// len(out) and every column the program reads must hold at least n values.
func (p *Program) EvalColumns(cols *Columns, n int, out []float64, b *Batch) {
	out = out[:n]
	if len(p.code) == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return
	}
	st := b.stack[:0]
	for _, in := range p.code {
		switch op := in.op; {
		case op < OpConst:
			st = append(st, operand{v: cols[op&(MaxVariables-1)][:n]})
		case op == OpConst:
			buf := b.buffer(n)
			for i := range buf {
				buf[i] = in.val
			}
			st = append(st, operand{v: buf, owned: true})
		default:
			x, y := st[len(st)-2], st[len(st)-1]
			st = st[:len(st)-2]
			var dst []float64
			switch {
			case x.owned:
				dst = x.v
				if y.owned {
					b.free = append(b.free, y.v)
				}
			case y.owned:
				dst = y.v
			default:
				dst = b.buffer(n)
			}
			applyColumns(op, dst, x.v, y.v)
			st = append(st, operand{v: dst, owned: true})
		}
	}
	top := st[0]
	copy(out, top.v)
	if top.owned {
		b.free = append(b.free, top.v)
	}
	b.stack = st[:0]
}

// applyColumns sets dst[i] = a[i] op c[i]; dst may be a or c.
func applyColumns(op Op, dst, a, c []float64) {
	a, c = a[:len(dst)], c[:len(dst)]
	switch op {
	case OpAdd:
		for i := range dst {
			dst[i] = a[i] + c[i]
		}
	case OpSub:
		for i := range dst {
			dst[i] = a[i] - c[i]
		}
	case OpMul:
		for i := range dst {
			dst[i] = float64(a[i] * c[i]) // explicit rounding: forbids FMA fusion
		}
	default: // OpDiv, protected: x / 0 = x
		for i := range dst {
			if y := c[i]; y != 0 {
				dst[i] = a[i] / y
			} else {
				dst[i] = a[i]
			}
		}
	}
}

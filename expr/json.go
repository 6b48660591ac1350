package expr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// MarshalJSON encodes t as nested JSON: a terminal is its name ("d"), a
// constant a JSON number (the shortest decimal that parses back to the same
// float64, so −0 is -0), and an operator an array [op, left, right] with op
// one of "+", "-", "*", "%". Example: ["*", "g", ["+", "d", 0.5]].
// UnmarshalJSON reads it back to an Equal tree.
func (t *Tree) MarshalJSON() ([]byte, error) {
	if t.Size() == 0 {
		return nil, errors.New("expr: cannot encode an empty tree")
	}
	var b []byte
	var rec func(i int) int
	rec = func(i int) int {
		n := t.nodes[i]
		switch {
		case n.op.IsTerminal():
			b = append(b, '"')
			b = append(b, t.cat.Name(n.op)...)
			b = append(b, '"')
			return i + 1
		case n.op == OpConst:
			b = strconv.AppendFloat(b, n.val, 'g', -1, 64)
			return i + 1
		}
		b = append(b, `["`...)
		b = append(b, n.op.String()...)
		b = append(b, `",`...)
		j := rec(i + 1)
		b = append(b, ',')
		k := rec(j)
		b = append(b, ']')
		return k
	}
	rec(0)
	return b, nil
}

// UnmarshalJSON sets t to the tree encoded by data (see MarshalJSON), over
// the terminals of t's catalogue (a zero Tree is a ranking tree; read a
// routing tree with Routing.DecodeJSON). It is the one method that modifies
// its receiver. On error t is unchanged.
func (t *Tree) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("expr: decoding tree: %w", err)
	}
	if dec.More() {
		return errors.New("expr: decoding tree: trailing data after the tree")
	}
	var nodes []node
	var rec func(v any, path string, depth int) error
	rec = func(v any, path string, depth int) error {
		if depth > maxNesting {
			return fmt.Errorf("expr: decoding tree: nested more than %d levels at %s", maxNesting, path)
		}
		switch x := v.(type) {
		case string:
			op, ok := t.cat.VariableByName(x)
			if !ok {
				if _, other := t.cat.other().VariableByName(x); other {
					return fmt.Errorf("expr: decoding tree at %s: %s", path, t.cat.unknownTerminal(x))
				}
				return fmt.Errorf("expr: decoding tree at %s: unknown variable %q (want one of %s)", path, x, t.cat.variableNames())
			}
			nodes = append(nodes, node{op: op})
			return nil
		case json.Number:
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil || math.IsInf(f, 0) {
				return fmt.Errorf("expr: decoding tree at %s: constant %s is not a finite float64", path, x)
			}
			nodes = append(nodes, node{op: OpConst, val: f})
			return nil
		case []any:
			if len(x) != 3 {
				return fmt.Errorf("expr: decoding tree at %s: operator array has %d elements, want 3 ([op, left, right])", path, len(x))
			}
			name, _ := x[0].(string)
			op, ok := operatorByName(name)
			if !ok {
				return fmt.Errorf("expr: decoding tree at %s: unknown operator %v (want \"+\", \"-\", \"*\" or \"%%\")", path, x[0])
			}
			nodes = append(nodes, node{op: op})
			if err := rec(x[1], path+"[1]", depth+1); err != nil {
				return err
			}
			return rec(x[2], path+"[2]", depth+1)
		}
		return fmt.Errorf("expr: decoding tree at %s: unexpected %T (want a variable name, a number or [op, left, right])", path, v)
	}
	if err := rec(v, "$", 0); err != nil {
		return err
	}
	t.nodes = nodes
	return nil
}

// operatorByName accepts "+", "-", "*", "%" and also "/" for protected
// division, as Parse does.
func operatorByName(s string) (Op, bool) {
	if s == "/" {
		return OpDiv, true
	}
	for op := OpAdd; op <= OpDiv; op++ {
		if op.String() == s {
			return op, true
		}
	}
	return 0, false
}

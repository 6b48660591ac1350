package expr

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Defaults of the generation and variation settings (SPEC §8).
const (
	DefaultMinDepth      = 2   // ramped half-and-half starts at depth 2
	DefaultMaxDepth      = 6   // … and ends at depth 6
	DefaultDepthLimit    = 7   // hard limit for every offspring
	DefaultInternalProb  = 0.9 // Koza's 90/10 internal/leaf point choice
	DefaultMutationDepth = 4   // depth of the subtree grown by SubtreeMutation
	DefaultConstMin      = -1.0
	DefaultConstMax      = 1.0
	DefaultConstDigits   = 2
)

// GenSettings configure random tree generation. The zero value means the
// defaults: depths 2..6, no constants.
type GenSettings struct {
	// MinDepth and MaxDepth bound the depths ramped half-and-half cycles
	// through (a leaf has depth 1). 0 means the default (2 and 6).
	MinDepth, MaxDepth int
	// Terminals is the terminal set leaves are drawn from; 0 means the
	// paper's {d, q, u, g}.
	Terminals Terminals
	// Constants adds ephemeral random constants to the terminal set: a leaf
	// is then a constant with probability 1/(|Terminals| + 1).
	Constants bool
	// ConstMin and ConstMax bound the constants, drawn uniformly in
	// [ConstMin, ConstMax] and rounded to ConstDigits decimals (so printed
	// formulas stay readable). Both 0 means [−1, 1]; ConstDigits 0 means 2,
	// negative means no rounding.
	ConstMin, ConstMax float64
	ConstDigits        int
}

// withDefaults fills the zero fields.
func (s GenSettings) withDefaults() GenSettings {
	if s.MinDepth == 0 {
		s.MinDepth = DefaultMinDepth
	}
	if s.MaxDepth == 0 {
		s.MaxDepth = max(DefaultMaxDepth, s.MinDepth)
	}
	if s.ConstMin == 0 && s.ConstMax == 0 {
		s.ConstMin, s.ConstMax = DefaultConstMin, DefaultConstMax
	}
	if s.ConstDigits == 0 {
		s.ConstDigits = DefaultConstDigits
	}
	return s
}

// Validate reports settings that cannot generate trees (after defaults).
func (s GenSettings) Validate() error {
	s = s.withDefaults()
	switch {
	case s.MinDepth < 1:
		return fmt.Errorf("expr: min depth %d, must be ≥ 1", s.MinDepth)
	case s.MaxDepth < s.MinDepth:
		return fmt.Errorf("expr: max depth %d < min depth %d", s.MaxDepth, s.MinDepth)
	case !(s.ConstMin <= s.ConstMax) || math.IsInf(s.ConstMin, 0) || math.IsInf(s.ConstMax, 0):
		return fmt.Errorf("expr: constant range [%v, %v] is not a finite interval", s.ConstMin, s.ConstMax)
	}
	return nil
}

func (s GenSettings) mustValid(who string) GenSettings {
	if err := s.Validate(); err != nil {
		panic(fmt.Sprintf("expr.%s: %v", who, err))
	}
	return s.withDefaults()
}

// leafSource draws random leaves.
type leafSource struct {
	cat        Catalogue
	vars       []Op // the terminal set, in catalogue order
	constants  bool
	cmin, cmax float64
	digits     int
}

func (s GenSettings) leaves() leafSource {
	set := s.Terminals.Or(PaperTerminals)
	if s.Terminals&slotMask == 0 {
		set |= s.Terminals & routingFlag // an empty routing set: d, q, u, g of the routing catalogue
	}
	return leafSource{cat: set.Catalogue(), vars: set.Ops(), constants: s.Constants, cmin: s.ConstMin, cmax: s.ConstMax, digits: s.ConstDigits}
}

// kinds is the number of leaf kinds: the terminals, plus one for
// constants.
func (ls leafSource) kinds() int {
	if ls.constants {
		return len(ls.vars) + 1
	}
	return len(ls.vars)
}

// leaf draws uniformly from the terminal set, or, with constants on, from
// the terminal set and "constant" (for {d, q, u, g}: one of 4 or 5 kinds).
func (ls leafSource) leaf(rng *rand.Rand) node {
	if i := rng.IntN(ls.kinds()); i < len(ls.vars) {
		return node{op: ls.vars[i]}
	}
	return node{op: OpConst, val: ls.constant(rng)}
}

// constant draws uniformly in [cmin, cmax] and rounds to digits decimals;
// a rounded −0 becomes +0.
func (ls leafSource) constant(rng *rand.Rand) float64 {
	v := ls.cmin + rng.Float64()*(ls.cmax-ls.cmin)
	if ls.digits > 0 {
		p := math.Pow(10, float64(ls.digits))
		v = math.Round(v*p) / p
	}
	if v == 0 {
		v = 0 // drop the sign of −0
	}
	return v
}

// binaryOp draws one of + − × % uniformly.
func binaryOp(rng *rand.Rand) Op { return OpAdd + Op(rng.IntN(4)) }

// Full returns a random tree in which every leaf is at exactly the given
// depth (depth 1 is a single leaf): operators are drawn uniformly from
// {+, −, ×, %} and leaves uniformly from the terminal set. It panics if
// depth < 1.
func Full(rng *rand.Rand, depth int, s GenSettings) *Tree {
	if depth < 1 {
		panic(fmt.Sprintf("expr.Full: depth %d, must be ≥ 1", depth))
	}
	ls := s.mustValid("Full").leaves()
	nodes := make([]node, 0, 1<<min(depth, 12)-1)
	var full func(d int)
	full = func(d int) {
		if d == 1 {
			nodes = append(nodes, ls.leaf(rng))
			return
		}
		nodes = append(nodes, node{op: binaryOp(rng)})
		full(d - 1)
		full(d - 1)
	}
	full(depth)
	return &Tree{nodes: nodes, cat: ls.cat}
}

// Grow returns a random tree of depth between 2 and depth (1 if depth is 1):
// the root is an operator, and below it every node above the depth limit is
// drawn uniformly from the whole primitive set (the four operators and the
// leaf kinds: the terminals, plus constants when on), so a branch stops
// early with probability L/(4+L) for L leaf kinds (4/8 or 5/9 for the
// paper's set) at each level; nodes at the limit are leaves. It panics if
// depth < 1.
func Grow(rng *rand.Rand, depth int, s GenSettings) *Tree {
	if depth < 1 {
		panic(fmt.Sprintf("expr.Grow: depth %d, must be ≥ 1", depth))
	}
	ls := s.mustValid("Grow").leaves()
	return &Tree{nodes: grow(rng, depth, ls, true, nil), cat: ls.cat}
}

// grow appends a grown subtree of depth ≤ depth to nodes. With rootOp the
// root is an operator whenever depth ≥ 2.
func grow(rng *rand.Rand, depth int, ls leafSource, rootOp bool, nodes []node) []node {
	leafKinds := ls.kinds()
	var rec func(d int, forceOp bool)
	rec = func(d int, forceOp bool) {
		if d == 1 || (!forceOp && rng.IntN(4+leafKinds) < leafKinds) {
			nodes = append(nodes, ls.leaf(rng))
			return
		}
		nodes = append(nodes, node{op: binaryOp(rng)})
		rec(d-1, false)
		rec(d-1, false)
	}
	rec(depth, rootOp)
	return nodes
}

// RampedHalfAndHalf returns n random trees: the depths MinDepth..MaxDepth
// are cycled through in order, and at each depth trees alternate between
// Full and Grow (tree i uses depth MinDepth + (i/2) mod (MaxDepth−MinDepth+1)
// and Full when i is even). It panics on invalid settings.
func RampedHalfAndHalf(rng *rand.Rand, n int, s GenSettings) []*Tree {
	s = s.mustValid("RampedHalfAndHalf")
	span := s.MaxDepth - s.MinDepth + 1
	out := make([]*Tree, n)
	for i := range out {
		depth := s.MinDepth + (i/2)%span
		if i%2 == 0 {
			out[i] = Full(rng, depth, s)
		} else {
			out[i] = Grow(rng, depth, s)
		}
	}
	return out
}

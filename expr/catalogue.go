package expr

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Catalogue names one table of terminals: the primitive set a tree is built
// from (as DEAP's primitive set is data). Ranking is the priority function's
// catalogue (SPEC §8, the zero value, used everywhere a catalogue is not
// named); Routing is the routing tree's (SPEC §16). Op values below
// MaxVariables are terminal slots whose meaning is the catalogue's: the
// shared terminals d q u g a r w have the same slot in both, f and n mean
// different things in each, and a name of one catalogue that is not in the
// other is an error there.
type Catalogue uint8

// The catalogues.
const (
	Ranking Catalogue = iota // priority functions (SPEC §8); the zero value
	Routing                  // routing trees of the rule allocator (SPEC §16)
)

// The routing catalogue's slots (SPEC §16). d q u g a r w share the
// ranking's slots (OpD… and VariableByName); the cluster features follow.
// Slots 7 and 8 are f and n in both catalogues, with different meanings.
const (
	OpRouteFree     Op = 7  // f: GPUs of p not held by Jn jobs at t
	OpRouteAssigned Op = 8  // n: jobs assigned to p so far in this operation, Jn included
	OpRouteNodes    Op = 9  // N: nodes of p
	OpRouteGPUs     Op = 10 // C: GPUs of p, N·G
	OpRouteWork     Op = 11 // W: work ahead per GPU (hours)
	OpRouteFit      Op = 12 // x: earliest time j's shape fits on p given Jn alone (hours from t)
	OpRouteHome     Op = 13 // h: 1 if p is the user cluster s_j
	OpRouteCurrent  Op = 14 // o: 1 if p is j's current cluster
	OpRouteMCT      Op = 15 // m: MCT's finish estimate for j on p (hours from t); costs a what-if
)

// routingCatalogue is the routing table (index = Op). It is never modified.
var routingCatalogue = [NumRoutingVariables]Variable{
	{"d", "remaining duration of the job on the cluster (hours by default)", Bound{Lo: 1.0 / 3600, Hi: math.Inf(1)}},
	{"q", "queuing time of the job so far (hours by default)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"u", "user priority (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"g", "GPU demand (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"a", "time since arrival, t − a_j (hours by default)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"r", "workers of the job (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"w", "GPUs per worker (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"f", "GPUs of the cluster not held by non-preemptive (Jn) jobs at t (integer ≥ 0)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"n", "jobs assigned to the cluster so far in this operation, Jn included (integer ≥ 0)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"N", "nodes of the cluster (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"C", "GPUs of the cluster, nodes × GPUs per node (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"W", "work ahead per GPU: GPU-hours of the Jn jobs and of the jobs assigned so far, over C", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"x", "earliest time the job's shape fits on the cluster given the Jn jobs alone (hours from t)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"h", "1 if the cluster is the job's user cluster, else 0", Bound{Lo: 0, Hi: 1}},
	{"o", "1 if the cluster is the job's current cluster, else 0", Bound{Lo: 0, Hi: 1}},
	{"m", "finish time MCT computes for the job on the cluster (hours from t; costs a what-if)", Bound{Lo: 0, Hi: math.Inf(1)}},
}

// table is c's terminal table.
func (c Catalogue) table() []Variable {
	if c == Routing {
		return routingCatalogue[:]
	}
	return catalogue[:]
}

// String is "ranking" or "routing".
func (c Catalogue) String() string {
	if c == Routing {
		return "routing"
	}
	return "ranking"
}

// Len is the number of terminals of c.
func (c Catalogue) Len() int { return len(c.table()) }

// Variables returns c's terminals, in Op order.
func (c Catalogue) Variables() []Variable { return slices.Clone(c.table()) }

// VariableByName returns c's terminal op named name.
func (c Catalogue) VariableByName(name string) (Op, bool) {
	for i, v := range c.table() {
		if v.Name == name {
			return Op(i), true
		}
	}
	return 0, false
}

// Name is the name of terminal op in c ("Op(k)" for a slot c does not have).
func (c Catalogue) Name(op Op) string {
	if tab := c.table(); int(op) < len(tab) {
		return tab[op].Name
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// Set is the empty terminal set of c; Set(ops...) holds the given ops.
func (c Catalogue) Set(ops ...Op) Terminals {
	var s Terminals
	if c == Routing {
		s = routingFlag
	}
	for _, op := range ops {
		s |= 1 << op
	}
	return s
}

// All is the set of every terminal of c.
func (c Catalogue) All() Terminals { return c.Set() | Terminals(1<<c.Len()-1) }

// variableNames is "d, q, u, g, a, …" for error messages.
func (c Catalogue) variableNames() string {
	tab := c.table()
	names := make([]string, len(tab))
	for i := range tab {
		names[i] = tab[i].Name
	}
	return strings.Join(names, ", ")
}

// other is the catalogue that is not c.
func (c Catalogue) other() Catalogue {
	if c == Routing {
		return Ranking
	}
	return Routing
}

// unknownTerminal explains why name is not a terminal of c: it names the
// terminal and the tree kind, and says when it belongs to the other
// catalogue only.
func (c Catalogue) unknownTerminal(name string) string {
	if _, ok := c.other().VariableByName(name); ok {
		return fmt.Sprintf("unknown variable %q in a %s tree: it is a %s terminal (want one of %s)",
			name, c, c.other(), c.variableNames())
	}
	return fmt.Sprintf("unknown variable %q in a %s tree (want one of %s)", name, c, c.variableNames())
}

// ParseTerminals builds a set of c from terminal names. Unknown or repeated
// names are errors; an empty list is an error too.
func (c Catalogue) ParseTerminals(names []string) (Terminals, error) {
	if len(names) == 0 {
		return 0, fmt.Errorf("expr: empty %s terminal set (have %s)", c, c.variableNames())
	}
	s := c.Set()
	for _, n := range names {
		op, ok := c.VariableByName(strings.TrimSpace(n))
		if !ok {
			if _, other := c.other().VariableByName(strings.TrimSpace(n)); other {
				return 0, fmt.Errorf("expr: %s", c.unknownTerminal(strings.TrimSpace(n)))
			}
			return 0, fmt.Errorf("expr: unknown %s terminal %q (have %s)", c, n, c.variableNames())
		}
		if s.Has(op) {
			return 0, fmt.Errorf("expr: terminal %q listed twice", n)
		}
		s |= 1 << op
	}
	return s, nil
}

// Parse reads an infix formula over c's terminals (see Parse).
func (c Catalogue) Parse(s string) (*Tree, error) { return parseIn(c, s) }

// MustParse is c.Parse for formulas known to be valid; it panics on error.
func (c Catalogue) MustParse(s string) *Tree {
	t, err := c.Parse(s)
	if err != nil {
		panic(fmt.Sprintf("expr.%v.MustParse(%q): %v", c, s, err))
	}
	return t
}

// DecodeJSON reads a tree of c from its JSON encoding (see MarshalJSON).
func (c Catalogue) DecodeJSON(data []byte) (*Tree, error) {
	t := &Tree{cat: c}
	if err := t.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return t, nil
}

// Terminal returns the one-leaf tree of c for terminal op. It panics if op
// is not one of c's terminals.
func (c Catalogue) Terminal(op Op) *Tree {
	if !op.IsTerminal() || int(op) >= c.Len() {
		panic(fmt.Sprintf("expr.%v.Terminal: %v is not a terminal", c, op))
	}
	return &Tree{nodes: []node{{op: op}}, cat: c}
}

// Catalogue is the catalogue t's terminals belong to.
func (t *Tree) Catalogue() Catalogue {
	if t == nil {
		return Ranking
	}
	return t.cat
}

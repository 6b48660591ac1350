package expr

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// Variable describes one terminal a formula may use. The catalogue below is
// the single place where a terminal is declared: its name (one identifier
// that formulas, JSON and printers use), what it means, and the Bound of the
// values it takes in the simulator (used by SimplifyOn and DefaultDomain).
// Adding a terminal is one entry here (and NumVariables + 1); the caller
// that evaluates formulas (learn's adapter) supplies its value.
type Variable struct {
	Name  string
	Doc   string
	Bound Bound
}

// NumVariables is the number of terminals in the ranking catalogue. Op
// values 0..NumVariables−1 are its terminals, in catalogue order.
const NumVariables = 12

// NumRoutingVariables is the number of terminals in the routing catalogue
// (SPEC §16). Op values 0..NumRoutingVariables−1 are its terminals.
const NumRoutingVariables = 16

// MaxVariables is the size of a Vars array: a power of two ≥ the size of
// every catalogue, so that evaluation can index it without a bounds check.
// Op values below MaxVariables are terminal slots; what a slot means depends
// on the tree's Catalogue.
const MaxVariables = 16

// catalogue is the table of terminals (index = Op). The first four are the
// paper's; their order is that of Eval's arguments. It is never modified.
var catalogue = [NumVariables]Variable{
	{"d", "remaining duration of the job (hours by default)", Bound{Lo: 1.0 / 3600, Hi: math.Inf(1)}},
	{"q", "queuing time of the job so far (hours by default)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"u", "user priority (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"g", "GPU demand (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"a", "time since arrival, t − a_j (hours by default)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"r", "workers of the job (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"w", "GPUs per worker (integer ≥ 1)", Bound{Lo: 1, Hi: math.Inf(1)}},
	{"f", "free GPUs of the job's cluster at t (integer ≥ 0)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"n", "jobs queued on the job's cluster at t (integer ≥ 0)", Bound{Lo: 0, Hi: math.Inf(1)}},
	{"e", "1 if the job fits on the free GPUs of its cluster at t, else 0", Bound{Lo: 0, Hi: 1}},
	{"s", "slack, deadline − t − remaining (hours by default; a large value without a deadline)", Bound{Lo: math.Inf(-1), Hi: math.Inf(1)}},
	{"v", "speed of the job on its cluster's GPU type, in (0, 1]", Bound{Lo: 0, Hi: 1, LoStrict: true}},
}

// Variables returns the ranking catalogue of terminals, in Op order.
func Variables() []Variable { return slices.Clone(catalogue[:]) }

// VariableByName returns the ranking terminal op named name.
func VariableByName(name string) (Op, bool) { return Ranking.VariableByName(name) }

// variableNames is "d, q, u, g, a, …" for error messages.
func variableNames() string { return Ranking.variableNames() }

// Vars holds the value of every terminal for one evaluation, indexed by Op.
// Entries of terminals a formula does not use are ignored.
type Vars [MaxVariables]float64

// Terminals is a set of terminals of one catalogue (bit i = Op(i), and a
// flag bit for the routing catalogue, so a set knows which catalogue its
// slots refer to; see Catalogue.Set). The zero set means the paper's
// {d, q, u, g} wherever a generator needs a set (see Or); a generator given
// a routing set builds routing trees.
type Terminals uint32

// routingFlag marks a Terminals set of the routing catalogue.
const routingFlag Terminals = 1 << 31

// slotMask keeps the terminal bits of a set.
const slotMask Terminals = 1<<MaxVariables - 1

// PaperTerminals is {d, q, u, g}, the paper's terminal set (SPEC §8).
const PaperTerminals Terminals = 1<<OpD | 1<<OpQ | 1<<OpU | 1<<OpG

// ParseTerminals builds a set of ranking terminals from their names (see
// Catalogue.ParseTerminals).
func ParseTerminals(names []string) (Terminals, error) { return Ranking.ParseTerminals(names) }

// Or returns s, or def when s holds no terminal.
func (s Terminals) Or(def Terminals) Terminals {
	if s&slotMask == 0 {
		return def
	}
	return s
}

// Catalogue is the catalogue whose slots s refers to.
func (s Terminals) Catalogue() Catalogue {
	if s&routingFlag != 0 {
		return Routing
	}
	return Ranking
}

// Has reports whether op is in s.
func (s Terminals) Has(op Op) bool { return op.IsTerminal() && s&(1<<op) != 0 }

// Len is the number of terminals in s.
func (s Terminals) Len() int { return bits.OnesCount32(uint32(s & slotMask)) }

// Ops lists the terminals of s in catalogue order.
func (s Terminals) Ops() []Op {
	out := make([]Op, 0, s.Len())
	for i := range Op(MaxVariables) {
		if s.Has(i) {
			out = append(out, i)
		}
	}
	return out
}

// Names lists the names of s in catalogue order.
func (s Terminals) Names() []string {
	var out []string
	c := s.Catalogue()
	for _, op := range s.Ops() {
		out = append(out, c.Name(op))
	}
	return out
}

// String is the names of s separated by commas, e.g. "d,q,u,g".
func (s Terminals) String() string { return strings.Join(s.Names(), ",") }

// Minus is the set of terminals in s and not in o (of s's catalogue).
func (s Terminals) Minus(o Terminals) Terminals { return s &^ (o & slotMask) }

// MarshalJSON writes the set as a list of names in catalogue order.
func (s Terminals) MarshalJSON() ([]byte, error) {
	names := s.Names()
	if names == nil {
		names = []string{}
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads a list of ranking terminal names (see
// ParseTerminals); a routing set is read with Routing.ParseTerminals.
func (s *Terminals) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return fmt.Errorf("expr: terminal set: %w", err)
	}
	v, err := ParseTerminals(names)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Terminals is the set of terminals t uses, of t's catalogue.
func (t *Tree) Terminals() Terminals {
	if t == nil {
		return 0
	}
	s := t.cat.Set()
	for _, n := range t.nodes {
		if n.op.IsTerminal() {
			s |= 1 << n.op
		}
	}
	return s
}

// UsesConstants reports whether t has a constant leaf.
func (t *Tree) UsesConstants() bool { return t.Uses(OpConst) }

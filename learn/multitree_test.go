package learn

import (
	"bytes"
	"encoding/json"
	mrand "math/rand"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
)

// routingTestTerms is a routing terminal set for the operator tests.
func routingTestTerms(t *testing.T) expr.Terminals {
	t.Helper()
	terms, err := expr.Routing.ParseTerminals([]string{"d", "g", "f", "W", "n", "o", "h"})
	if err != nil {
		t.Fatal(err)
	}
	return terms
}

// testPairs is a two-tree population: routing trees over routingTestTerms
// and ranking trees over the paper's terminals.
func testPairs(t *testing.T, n int) []scored {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	ranks := expr.RampedHalfAndHalf(rng, n, expr.GenSettings{MinDepth: 2, MaxDepth: 5})
	routes := expr.RampedHalfAndHalf(rng, n, expr.GenSettings{MinDepth: 2, MaxDepth: 5, Terminals: routingTestTerms(t)})
	pop := make([]scored, n)
	for i := range pop {
		pop[i] = newScored(routes[i], ranks[i])
		pop[i].fitness = float64(i % 5)
	}
	return pop
}

func twoTreeVariation(t *testing.T, crossover, mutation, swap float64) variation {
	return variation{
		tournament: 3, crossover: crossover, mutation: mutation, treeSwap: swap,
		vary:        expr.VarSettings{MaxDepth: 7, InternalProb: 0.9},
		routingVary: expr.VarSettings{MaxDepth: 7, InternalProb: 0.9, Terminals: routingTestTerms(t)},
	}
}

// Crossover and mutation change one tree of a two-tree child and copy the
// other from its first parent; over many pairs both trees get chosen; the
// hash is the pair's; breeding is deterministic.
func TestVaryPairChangesOneTree(t *testing.T) {
	pop := testPairs(t, 16)
	for _, c := range []struct {
		name                      string
		crossover, mutation, swap float64
	}{{"crossover", 1, 0, 0}, {"mutation", 0, 1, 0}} {
		t.Run(c.name, func(t *testing.T) {
			v := twoTreeVariation(t, c.crossover, c.mutation, c.swap)
			routingChanged, rankingChanged := 0, 0
			for seed := range uint64(40) {
				s1, s2 := pop[seed%16], pop[(seed+5)%16]
				c1, c2 := varyPair(s1, s2, v, rand.New(rand.NewPCG(seed, 9)))
				d1, d2 := varyPair(s1, s2, v, rand.New(rand.NewPCG(seed, 9)))
				if !c1.tree.Equal(d1.tree) || !c1.routing.Equal(d1.routing) || !c2.tree.Equal(d2.tree) || !c2.routing.Equal(d2.routing) {
					t.Fatal("the same draws bred different children")
				}
				for _, k := range []struct{ child, parent scored }{{c1, s1}, {c2, s2}} {
					r, f := !k.child.routing.Equal(k.parent.routing), !k.child.tree.Equal(k.parent.tree)
					if r && f {
						t.Fatalf("both trees changed: %s from %s", individualString(k.child.routing, k.child.tree), individualString(k.parent.routing, k.parent.tree))
					}
					if k.child.routing.Catalogue() != expr.Routing || k.child.tree.Catalogue() != expr.Ranking {
						t.Fatalf("a child's trees changed catalogue: %v %v", k.child.routing.Catalogue(), k.child.tree.Catalogue())
					}
					if k.child.hash != individualHash(k.child.routing, k.child.tree) {
						t.Fatal("a child carries a stale hash")
					}
					if k.child.routing.Depth() > 7 || k.child.tree.Depth() > 7 {
						t.Fatal("a child is deeper than max_depth")
					}
					if r {
						routingChanged++
					}
					if f {
						rankingChanged++
					}
				}
			}
			if routingChanged == 0 || rankingChanged == 0 {
				t.Errorf("routing changed %d times, ranking %d times: the operator must pick either tree", routingChanged, rankingChanged)
			}
		})
	}
	t.Run("swap", func(t *testing.T) {
		v := twoTreeVariation(t, 0, 0, 1)
		s1, s2 := pop[1], pop[2]
		c1, c2 := varyPair(s1, s2, v, rand.New(rand.NewPCG(1, 2)))
		if !c1.routing.Equal(s2.routing) || !c2.routing.Equal(s1.routing) || !c1.tree.Equal(s1.tree) || !c2.tree.Equal(s2.tree) {
			t.Errorf("tree swap: got %s and %s", individualString(c1.routing, c1.tree), individualString(c2.routing, c2.tree))
		}
	})
	t.Run("breed", func(t *testing.T) {
		v := twoTreeVariation(t, 0.9, 0.3, 0.1)
		a, err := breed(pop, 12, v, rand.New(rand.NewPCG(5, 6)), mrand.New(mrand.NewSource(7)))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range a {
			if c.routing == nil {
				t.Fatal("breeding two-tree parents dropped the routing tree")
			}
		}
	})
}

// The pair hash: one tree is its own hash (the paper's learner unchanged),
// two trees that simplify alike share it, and either tree changes it.
func TestIndividualHash(t *testing.T) {
	f := expr.MustParse("g * d")
	if individualHash(nil, f) != f.Hash() {
		t.Fatal("a one-tree individual's hash must be its tree's")
	}
	r1, r2, r3 := expr.Routing.MustParse("W * 1"), expr.Routing.MustParse("W"), expr.Routing.MustParse("W + o")
	if individualHash(r1, f) != individualHash(r2, f) {
		t.Error("routing trees that simplify alike must share the pair hash")
	}
	if individualHash(r2, f) == individualHash(r3, f) || individualHash(r2, f) == individualHash(r2, expr.MustParse("d")) || individualHash(r2, f) == f.Hash() {
		t.Error("the pair hash must change with either tree")
	}
}

// A checkpoint member without a routing tree encodes as before (no
// "routing" key); one with a routing tree reads back equal.
func TestMemberRoutingJSON(t *testing.T) {
	one, err := json.Marshal(member{Tree: expr.MustParse("g * d"), Fitness: 1})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(one, []byte("routing")) {
		t.Errorf("a one-tree member encodes a routing key: %s", one)
	}
	r := expr.Routing.MustParse("W + 0.5 * o")
	two, err := json.Marshal(member{Tree: expr.MustParse("g * d"), Routing: RoutingTree{Tree: r}, Fitness: 1})
	if err != nil {
		t.Fatal(err)
	}
	var back member
	if err := json.Unmarshal(two, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Routing.Tree.Equal(r) || back.Routing.Tree.Catalogue() != expr.Routing {
		t.Errorf("routing tree read back as %v", back.Routing.Tree)
	}
	if err := json.Unmarshal([]byte(`{"tree": "d", "routing": ["+", "d", "e"], "fitness": 1}`), &back); err == nil || !strings.Contains(err.Error(), "ranking terminal") {
		t.Errorf("a routing tree with a ranking-only terminal: %v", err)
	}
}

// gp.seed_routing and gp.routing_terminals: one clear error each.
func TestPrepareRoutingBadInput(t *testing.T) {
	base := configs.Default().GP
	base.Learn = []string{"routing", "ranking"}
	base.RoutingTerminals = []string{"d", "W", "o"}
	for _, c := range []struct {
		terms, seeds []string
		want         string
	}{
		{nil, []string{"W + e"}, `gp.seed_routing[0] "W + e"`},
		{nil, []string{"W + e"}, "it is a ranking terminal"},
		{nil, []string{"W", "m"}, `gp.seed_routing[1] "m" uses m, not in gp.routing_terminals`},
		{[]string{"d", "e"}, nil, "gp.routing_terminals"},
		{nil, []string{"W +"}, `gp.seed_routing[0] "W +"`},
	} {
		gp := base
		if c.terms != nil {
			gp.RoutingTerminals = c.terms
		}
		gp.SeedRouting = c.seeds
		if _, err := prepareRouting(gp); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: err = %v, want %q", c.terms, c.seeds, err, c.want)
		}
	}
	gp := base
	gp.SeedRouting = []string{"W", "0 - o"}
	rs, err := prepareRouting(gp)
	if err != nil || len(rs.seeds) != 2 || rs.scope != "arrivals" || rs.terms.Catalogue() != expr.Routing {
		t.Fatalf("good routing keys: %+v %v", rs, err)
	}
	gp.Scope, gp.RoutingTerminals, gp.SeedRouting = "all", []string{"W", "o", "m"}, []string{"m", "m - o"}
	if rs, err := prepareRouting(gp); err != nil || rs.scope != "all" || !rs.terms.Has(expr.OpRouteMCT) {
		t.Fatalf("m in scope all: %+v %v", rs, err)
	}
}

package expr

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRoutingCatalogueNames(t *testing.T) {
	want := "d,q,u,g,a,r,w,f,n,N,C,W,x,h,o,m"
	if got := Routing.All().String(); got != want {
		t.Fatalf("routing terminals %s, want %s", got, want)
	}
	if Routing.Len() != NumRoutingVariables || Routing.Len() > MaxVariables {
		t.Fatalf("routing catalogue has %d terminals", Routing.Len())
	}
	for i, v := range Routing.Variables() {
		op, ok := Routing.VariableByName(v.Name)
		if !ok || op != Op(i) || Routing.Name(op) != v.Name {
			t.Errorf("%q: slot %d, ok %v", v.Name, op, ok)
		}
	}
	// The shared terminals keep the ranking's slots.
	for _, name := range []string{"d", "q", "u", "g", "a", "r", "w", "f", "n"} {
		a, _ := Ranking.VariableByName(name)
		b, _ := Routing.VariableByName(name)
		if a != b {
			t.Errorf("%q: ranking slot %d, routing slot %d", name, a, b)
		}
	}
}

func TestRoutingParseEvalPrint(t *testing.T) {
	tr, err := Routing.Parse("W + m * h - x % (N - C) + o * f - n")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Catalogue() != Routing {
		t.Fatal("parsed tree is not a routing tree")
	}
	var v Vars
	v[OpRouteWork], v[OpRouteMCT], v[OpRouteHome] = 2, 3, 1
	v[OpRouteFit], v[OpRouteNodes], v[OpRouteGPUs] = 8, 2, 6
	v[OpRouteCurrent], v[OpRouteFree], v[OpRouteAssigned] = 1, 5, 4
	// 2 + 3·1 − 8/(2−6) + 1·5 − 4 = 2 + 3 + 2 + 5 − 4 = 8
	if got := tr.EvalVars(&v); got != 8 {
		t.Fatalf("eval %v, want 8", got)
	}
	if got := Compile(tr).EvalVars(&v); got != 8 {
		t.Fatalf("compiled eval %v, want 8", got)
	}
	if got := tr.Terminals().String(); got != "f,n,N,C,W,x,h,o,m" {
		t.Fatalf("terminals %s", got)
	}
	for _, f := range Formats() {
		s, err := Format(tr, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, name := range []string{"W", "m", "x", "N", "C"} {
			if !strings.Contains(s, name) {
				t.Errorf("%s form %q lacks %s", f, s, name)
			}
		}
	}
	back, err := Routing.Parse(tr.String())
	if err != nil || !back.Equal(tr) {
		t.Fatalf("infix round trip %q: %v", tr, err)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := Routing.DecodeJSON(b)
	if err != nil || !dec.Equal(tr) {
		t.Fatalf("JSON round trip %s: %v", b, err)
	}
	if _, err := Ranking.DecodeJSON(b); err == nil || !strings.Contains(err.Error(), `"f"`) && !strings.Contains(err.Error(), `"W"`) {
		t.Fatalf("a routing tree decoded as ranking: %v", err)
	}
	if Simplify(tr).Catalogue() != Routing || SimplifyOn(tr, DefaultDomain()).Catalogue() != Routing {
		t.Fatal("simplification lost the catalogue")
	}
	rk := MustParse("d + f")
	rt := Routing.MustParse("d + f")
	if rk.Equal(rt) || rk.Hash() == rt.Hash() {
		t.Fatal("ranking d+f and routing d+f must differ (f means different things)")
	}
	if rt.String() != "d + f" || rk.String() != "d + f" {
		t.Fatal("printing")
	}
}

func TestCatalogueCrossErrors(t *testing.T) {
	for _, name := range []string{"e", "s", "v"} {
		_, err := Routing.Parse("d + " + name)
		if err == nil || !strings.Contains(err.Error(), `"`+name+`" in a routing tree: it is a ranking terminal`) {
			t.Errorf("routing %q: %v", name, err)
		}
		if _, err := Routing.ParseTerminals([]string{"d", name}); err == nil || !strings.Contains(err.Error(), "routing tree") {
			t.Errorf("routing set with %q: %v", name, err)
		}
		if _, err := Routing.DecodeJSON([]byte(`["+","d","` + name + `"]`)); err == nil || !strings.Contains(err.Error(), "ranking terminal") {
			t.Errorf("routing JSON with %q: %v", name, err)
		}
	}
	for _, name := range []string{"N", "C", "W", "x", "h", "o", "m"} {
		_, err := Parse("d + " + name)
		if err == nil || !strings.Contains(err.Error(), `"`+name+`" in a ranking tree: it is a routing terminal`) {
			t.Errorf("ranking %q: %v", name, err)
		}
		var tr Tree
		if err := json.Unmarshal([]byte(`["+","d","`+name+`"]`), &tr); err == nil || !strings.Contains(err.Error(), "routing terminal") {
			t.Errorf("ranking JSON with %q: %v", name, err)
		}
	}
	if _, err := Routing.Parse("d + zz"); err == nil || !strings.Contains(err.Error(), `unknown variable "zz"`) {
		t.Errorf("unknown: %v", err)
	}
}

func TestRoutingGeneration(t *testing.T) {
	set, err := Routing.ParseTerminals([]string{"W", "h", "o", "x"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	trees := RampedHalfAndHalf(rng, 60, GenSettings{MinDepth: 2, MaxDepth: 5, Terminals: set})
	for _, tr := range trees {
		if tr.Catalogue() != Routing || tr.Terminals().Minus(set).Len() != 0 {
			t.Fatalf("%v: catalogue %v, terminals %v", tr, tr.Catalogue(), tr.Terminals())
		}
		back, err := Routing.Parse(tr.String())
		if err != nil || !back.Equal(tr) {
			t.Fatalf("round trip %q: %v", tr, err)
		}
		vs := VarSettings{Terminals: set}
		for _, c := range []*Tree{Crossover(rng, tr, trees[0], vs), SubtreeMutation(rng, tr, vs), PointMutation(rng, tr, vs)} {
			if c.Catalogue() != Routing || c.Terminals().Minus(set).Len() != 0 {
				t.Fatalf("offspring %v of %v left the routing set", c, tr)
			}
		}
	}
	// An empty routing set is d, q, u, g of the routing catalogue.
	if tr := Full(rng, 3, GenSettings{Terminals: Routing.Set()}); tr.Catalogue() != Routing {
		t.Fatal("empty routing set built a ranking tree")
	}
}

func FuzzRoutingParse(f *testing.F) {
	for _, s := range []string{"m", "W + h", "x % (N - C)", "o*f - n", "d + e", "q + W *", "v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := Routing.Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Col < 1 {
				t.Fatalf("Routing.Parse(%q): error without a column: %v", s, err)
			}
			return
		}
		back, err := Routing.Parse(tr.String())
		if err != nil || !back.Equal(tr) {
			t.Fatalf("Routing.Parse(%q): %q does not reparse equal: %v", s, tr.String(), err)
		}
		b, err := tr.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if dec, err := Routing.DecodeJSON(b); err != nil || !dec.Equal(tr) {
			t.Fatalf("JSON round trip of %q: %v", s, err)
		}
	})
}

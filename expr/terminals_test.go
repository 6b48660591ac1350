package expr

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// Every catalogue entry has a distinct identifier name and a non-empty
// domain, and Op(i).String() is its name.
func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for i, v := range Variables() {
		if v.Name == "" || seen[v.Name] || v.Doc == "" {
			t.Fatalf("catalogue entry %d: %+v (empty or repeated)", i, v)
		}
		seen[v.Name] = true
		if _, ok := v.Bound.interval(); !ok {
			t.Errorf("terminal %s: empty bound", v.Name)
		}
		if Op(i).String() != v.Name || !Op(i).IsTerminal() {
			t.Errorf("Op(%d) = %v, want terminal %s", i, Op(i), v.Name)
		}
		if op, ok := VariableByName(v.Name); !ok || op != Op(i) {
			t.Errorf("VariableByName(%s) = %v, %v", v.Name, op, ok)
		}
	}
	if OpConst.IsTerminal() || OpAdd.IsTerminal() || NumVariables > MaxVariables {
		t.Fatal("op kinds overlap the terminals")
	}
}

// Adding terminals must not change the hash of a tree over d, q, u, g:
// the learner's caches and tie orders depend on it. Values are those of
// the four-terminal encoding.
func TestHashStableAcrossCatalogue(t *testing.T) {
	for _, tc := range []struct {
		src  string
		hash uint64
	}{
		{"g*d", 0xf43f597c4c48e156},
		{"((q + g) % q - u) * (d % (q + (d + g - u) % (q * q)))", 0xbe06e31ef2ff9e21},
		{"d - 0.5", 0xbb50e3047f4d3f17},
	} {
		if h := MustParse(tc.src).Hash(); h != tc.hash {
			t.Errorf("Hash(%s) = %016x, want %016x", tc.src, h, tc.hash)
		}
	}
	if MustParse("a * d").Hash() == MustParse("g * d").Hash() || MustParse("s").Hash() == MustParse("v").Hash() {
		t.Error("distinct terminals hash alike")
	}
}

// Every terminal parses, prints, JSON-encodes and evaluates by name.
func TestExtraTerminalsRoundTrip(t *testing.T) {
	var vars Vars
	for i := range NumVariables {
		vars[i] = float64(10 + i)
	}
	for i := range Op(NumVariables) {
		src := i.String() + " * 2 - g"
		tr, err := Parse(src)
		if err != nil {
			t.Fatalf("parse %q: %v", src, err)
		}
		if back := MustParse(tr.String()); !back.Equal(tr) {
			t.Errorf("%s: infix round trip gives %s", src, back)
		}
		b, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		var back Tree
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(tr) {
			t.Errorf("%s: JSON %s round trip: %v", src, b, err)
		}
		want := vars[i]*2 - vars[OpG]
		if got := tr.EvalVars(&vars); got != want {
			t.Errorf("%s: Tree.EvalVars = %v, want %v", src, got, want)
		}
		if got := Compile(tr).EvalVars(&vars); got != want {
			t.Errorf("%s: Program.EvalVars = %v, want %v", src, got, want)
		}
		if got := tr.Terminals(); got != (1<<i | 1<<OpG) {
			t.Errorf("%s: Terminals = %v", src, got)
		}
		goSrc, err := Format(tr, "go")
		if err != nil {
			t.Fatal(err)
		}
		if i > OpG && !strings.Contains(goSrc, "g, "+i.String()+" float64") {
			t.Errorf("%s: Go source lacks parameter %s:\n%s", src, i, goSrc)
		}
	}
}

func TestParseTerminals(t *testing.T) {
	s, err := ParseTerminals([]string{"g", "d", "e", "q", "u"})
	if err != nil {
		t.Fatal(err)
	}
	if s.String() != "d,q,u,g,e" || s.Len() != 5 || !s.Has(OpG) || s.Has(OpConst) {
		t.Errorf("set = %v (len %d)", s, s.Len())
	}
	b, _ := json.Marshal(s)
	if string(b) != `["d","q","u","g","e"]` {
		t.Errorf("JSON = %s", b)
	}
	var back Terminals
	if err := json.Unmarshal(b, &back); err != nil || back != s {
		t.Errorf("JSON round trip: %v %v", back, err)
	}
	for _, bad := range [][]string{nil, {"d", "x"}, {"d", "d"}} {
		if _, err := ParseTerminals(bad); err == nil {
			t.Errorf("ParseTerminals(%q) accepted", bad)
		}
	}
	if PaperTerminals.String() != "d,q,u,g" || Terminals(0).Or(PaperTerminals) != PaperTerminals {
		t.Error("paper set")
	}
}

// Generators and mutation draw leaves only from the given set; the default
// set draws exactly what it drew before (same trees for the same seed as
// the explicit paper set).
func TestGenerationRespectsTerminals(t *testing.T) {
	set, _ := ParseTerminals([]string{"a", "e", "s"})
	rng := rand.New(rand.NewPCG(3, 4))
	vs := VarSettings{Terminals: set}
	for _, tr := range RampedHalfAndHalf(rng, 60, GenSettings{Terminals: set}) {
		if tr.Terminals().Minus(set) != 0 {
			t.Fatalf("%s uses terminals outside %v", tr, set)
		}
		for _, c := range []*Tree{SubtreeMutation(rng, tr, vs), PointMutation(rng, tr, vs)} {
			if c.Terminals().Minus(set) != 0 {
				t.Fatalf("mutant %s uses terminals outside %v", c, set)
			}
		}
	}
	seen := Terminals(0)
	for _, tr := range RampedHalfAndHalf(rng, 60, GenSettings{Terminals: set}) {
		seen |= tr.Terminals()
	}
	if seen != set {
		t.Errorf("60 trees used %v of %v", seen, set)
	}
	a := RampedHalfAndHalf(rand.New(rand.NewPCG(1, 2)), 20, GenSettings{})
	b := RampedHalfAndHalf(rand.New(rand.NewPCG(1, 2)), 20, GenSettings{Terminals: PaperTerminals})
	for i := range a {
		if !a[i].Equal(b[i]) {
			t.Fatalf("default and explicit paper set differ: %s vs %s", a[i], b[i])
		}
	}
	// One terminal, no constants: point mutation of a leaf has nothing to
	// change to, and must return rather than loop.
	one, _ := ParseTerminals([]string{"d"})
	if c := PointMutation(rng, Terminal(OpD), VarSettings{Terminals: one}); !c.Equal(Terminal(OpD)) {
		t.Errorf("point mutation with one terminal gave %s", c)
	}
}

// SimplifyOn uses the catalogue bounds of the extra terminals.
func TestSimplifyOnExtraTerminals(t *testing.T) {
	a, _ := VariableByName("a")
	dom := DefaultDomain()
	for _, tc := range []struct{ in, want string }{
		{"v % v", "1"},       // v ∈ (0, 1]: non-zero
		{"f % f", "f % f"},   // f may be 0
		{"r % r * d", "d"},   // r ≥ 1
		{"e - e + s", "s"},   // finite
		{"s % s", "s % s"},   // s may be 0
		{"w % (n - n)", "w"}, // division by zero-valued subtree
		{"(a + 1) % (a + 1)", "1"},
	} {
		if got := SimplifyOn(MustParse(tc.in), dom).String(); got != tc.want {
			t.Errorf("SimplifyOn(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	// An Extra bound overrides the catalogue's.
	dom.Extra = map[Op]Bound{a: {Lo: 2, Hi: 2}}
	if got := SimplifyOn(MustParse("a * d"), dom).String(); got != "2 * d" {
		t.Errorf("pinned a: %s", got)
	}
	dom.Extra = map[Op]Bound{a: {Lo: 1, Hi: 0}}
	if dom.Validate() == nil {
		t.Error("empty extra bound accepted")
	}
}

// BenchmarkEvalVars is Program.EvalVars on a 31-node tree over all twelve
// terminals (compare BenchmarkEval: the same loop).
func BenchmarkEvalVars(b *testing.B) {
	all := Terminals(1<<NumVariables - 1)
	tr := Full(rand.New(rand.NewPCG(7, 7)), 5, GenSettings{Terminals: all})
	p := Compile(tr)
	var vars [2]Vars
	for i := range NumVariables {
		vars[0][i], vars[1][i] = float64(i)+0.5, float64(2*i)+0.25
	}
	var sink float64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += p.EvalVars(&vars[i&1])
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tr.Size()), "ns/node")
	if sink == 42 {
		b.Log(sink)
	}
}

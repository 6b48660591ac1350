package expr

import (
	goparser "go/parser"
	gotoken "go/token"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestSizeDepth(t *testing.T) {
	for _, tc := range []struct {
		src         string
		size, depth int
	}{
		{"d", 1, 1},
		{"2.5", 1, 1},
		{"d+q", 3, 2},
		{"(d+q)*g", 5, 3},
		{"d+q*g", 5, 3},
		{"d-q-g-u", 7, 4},
		{"-d", 3, 2}, // 0 - d
		{eq17, 21, 7},
	} {
		tr := MustParse(tc.src)
		if tr.Size() != tc.size || tr.Depth() != tc.depth {
			t.Errorf("%q: size %d depth %d, want %d %d", tc.src, tr.Size(), tr.Depth(), tc.size, tc.depth)
		}
	}
	var empty Tree
	if empty.Size() != 0 || empty.Depth() != 0 || !math.IsNaN(empty.Eval(1, 2, 3, 4)) {
		t.Errorf("empty tree: size %d depth %d", empty.Size(), empty.Depth())
	}
}

func TestEvalHandComputed(t *testing.T) {
	negZero := math.Copysign(0, -1)
	// Hand-computed values must be rounded like float64 arithmetic, not
	// evaluated exactly as Go constant expressions: go through variables.
	two5, nine5, ten5 := 2.5, 9.5, 10.5
	for _, tc := range []struct {
		src        string
		d, q, u, g float64
		want       float64
	}{
		{"g*d", 2.5, 0, 1, 8, 20},
		{"d % q", 3, 2, 0, 0, 1.5},
		{"d / q", 3, 2, 0, 0, 1.5},
		{"d % q", 3, 0, 0, 0, 3},        // protected: divisor +0
		{"d % q", 3, negZero, 0, 0, 3},  // protected: divisor −0
		{"d % (q - q)", 7, 5, 0, 0, 7},  // divisor computes to 0
		{"q % q", 0, 0, 0, 0, 0},        // x % x is x at 0, not 1
		{"q % q", 0, 4, 0, 0, 1},        // and 1 elsewhere
		{"d - u * g", 10, 0, 2, 3, 4},   // precedence
		{"d - q - g", 10, 3, 0, 2, 5},   // left associativity
		{"d - (q - g)", 10, 3, 0, 2, 9}, // explicit grouping
		{"-d", 4, 0, 0, 0, -4},
		{"u % g + 1", 0, 0, 3, 4, 1.75},
		{eq17, 2.5, 1, 1, 8, 8 * (two5 / ten5)},        // (9/1−1)·(2.5/(1+9.5/1))
		{eq17, 2.5, 0, 1, 8, (8 - 1) * (two5 / nine5)}, // q = 0: both divisions protected
	} {
		tr := MustParse(tc.src)
		if got := tr.Eval(tc.d, tc.q, tc.u, tc.g); !sameFloat(got, tc.want) {
			t.Errorf("%q at (%v,%v,%v,%v) = %v, want %v", tc.src, tc.d, tc.q, tc.u, tc.g, got, tc.want)
		}
		if got := Compile(tr).Eval(tc.d, tc.q, tc.u, tc.g); !sameFloat(got, tc.want) {
			t.Errorf("compiled %q at (%v,%v,%v,%v) = %v, want %v", tc.src, tc.d, tc.q, tc.u, tc.g, got, tc.want)
		}
	}
	// 0 − d is +0 at d = +0 (unary minus is 0 − x, not IEEE negation).
	if got := MustParse("-d").Eval(0, 0, 0, 0); math.Signbit(got) {
		t.Errorf("-d at d=0 = %v, want +0", got)
	}
}

func TestBuildersAndAccessors(t *testing.T) {
	tr := Binary(OpMul, Terminal(OpG), Terminal(OpD))
	if !tr.Equal(MustParse("g*d")) {
		t.Fatalf("Binary built %v", tr)
	}
	l, r := tr.Operands()
	if !l.Equal(Terminal(OpG)) || !r.Equal(Terminal(OpD)) || tr.Root() != OpMul {
		t.Errorf("Operands of %v = %v, %v; root %v", tr, l, r, tr.Root())
	}
	if v, ok := Constant(2.5).Value(); !ok || v != 2.5 {
		t.Errorf("Value = %v, %v", v, ok)
	}
	if _, ok := tr.Value(); ok {
		t.Error("Value of an operator tree reported ok")
	}
	if !tr.Uses(OpG) || tr.Uses(OpQ) {
		t.Error("Uses is wrong for g*d")
	}
	if Constant(0).Equal(Constant(math.Copysign(0, -1))) {
		t.Error("Equal treats 0 and -0 as the same constant")
	}
	if MustParse("d+q").Equal(MustParse("q+d")) {
		t.Error("Equal is structural, d+q and q+d differ")
	}
	c := tr.Clone()
	c.nodes[0].op = OpAdd
	if tr.Root() != OpMul {
		t.Error("Clone shares storage with the original")
	}
	for _, f := range []func(){
		func() { Terminal(OpAdd) },
		func() { Constant(math.Inf(1)) },
		func() { Constant(math.NaN()) },
		func() { Binary(OpD, tr, tr) },
		func() { Binary(OpAdd, tr, &Tree{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("builder accepted an invalid argument")
				}
			}()
			f()
		}()
	}
}

func TestProgramMatchesTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		tr := randTree(rng, 1+rng.IntN(8))
		p := Compile(tr)
		if p.Len() != tr.Size() {
			t.Fatalf("program of %v has %d instructions, tree %d nodes", tr, p.Len(), tr.Size())
		}
		for range 10 {
			in := randInputs(rng)
			want := tr.Eval(in[0], in[1], in[2], in[3])
			if got := p.Eval(in[0], in[1], in[2], in[3]); !sameFloat(got, want) {
				t.Fatalf("%v at %v: program %v, tree %v", tr, in, got, want)
			}
		}
	}
}

// A right-leaning chain needs one stack slot per level, more than the
// inline stack: the heap fallback must agree with the tree walk.
func TestProgramDeepTreeUsesHeapStack(t *testing.T) {
	tr := Terminal(OpD)
	for i := range 100 {
		tr = Binary(OpAdd+Op(i%4), Terminal(Op(i%4)), tr)
	}
	p := Compile(tr)
	if p.stack <= inlineStack {
		t.Fatalf("stack need %d, want > %d for this test", p.stack, inlineStack)
	}
	for _, in := range [][4]float64{{1, 2, 3, 4}, {0, 0, 0, 0}, {-1, 0.5, 3, 7}} {
		want := tr.Eval(in[0], in[1], in[2], in[3])
		if got := p.Eval(in[0], in[1], in[2], in[3]); !sameFloat(got, want) {
			t.Errorf("at %v: program %v, tree %v", in, got, want)
		}
	}
	if Compile(&Tree{}).Eval(1, 1, 1, 1) == Compile(&Tree{}).Eval(1, 1, 1, 1) {
		t.Error("empty program must return NaN")
	}
}

func TestProgramEvalDoesNotAllocate(t *testing.T) {
	p := Compile(benchTree())
	var sink float64
	if n := testing.AllocsPerRun(1000, func() { sink += p.Eval(1.5, 0.25, 2, 8) }); n != 0 {
		t.Errorf("Program.Eval allocates %v times per call", n)
	}
	_ = sink
}

func TestProgramConcurrentUse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tr := Full(rng, 7, GenSettings{Constants: true})
	p := Compile(tr)
	inputs := make([][4]float64, 500)
	want := make([]float64, len(inputs))
	for i := range inputs {
		inputs[i] = randInputs(rng)
		want[i] = tr.Eval(inputs[i][0], inputs[i][1], inputs[i][2], inputs[i][3])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := range 50 {
				for k := range inputs {
					i := (k + w*37 + rep) % len(inputs)
					in := inputs[i]
					if got := p.Eval(in[0], in[1], in[2], in[3]); !sameFloat(got, want[i]) {
						errs <- "concurrent evaluation disagrees"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// benchTree is a fixed 31-node tree (full, depth 5).
func benchTree() *Tree {
	return Full(rand.New(rand.NewPCG(7, 7)), 5, GenSettings{})
}

// BenchmarkEval measures Program.Eval on a 31-node tree; ns/node is the
// figure quoted in docs/PERFORMANCE.md (budget: ≤ 5 ns per node).
func BenchmarkEval(b *testing.B) {
	tr := benchTree()
	if tr.Size() != 31 {
		b.Fatalf("bench tree has %d nodes", tr.Size())
	}
	p := Compile(tr)
	in := [8]float64{1.5, 0.25, 2, 8, 3.75, 0, 1, 4}
	var sink float64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i & 4
		sink += p.Eval(in[k], in[k+1], in[k+2], in[k+3])
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/31, "ns/node")
	if sink == 42 {
		b.Log(sink)
	}
}

// BenchmarkTreeEval is the reference tree walk, for comparison.
func BenchmarkTreeEval(b *testing.B) {
	tr := benchTree()
	var sink float64
	for i := 0; i < b.N; i++ {
		sink += tr.Eval(1.5, 0.25, 2, 8)
	}
	if sink == 42 {
		b.Log(sink)
	}
}

// expr must import no other evogp package (SPEC §1).
func TestImportsNoProjectPackage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		f, err := goparser.ParseFile(gotoken.NewFileSet(), name, nil, goparser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			// The examples (package expr_test) import expr itself.
			if strings.Contains(imp.Path.Value, "github.com/evogp/evogp") && !(f.Name.Name == "expr_test" && imp.Path.Value == `"github.com/evogp/evogp/expr"`) {
				t.Errorf("%s imports %s", name, imp.Path.Value)
			}
		}
	}
}

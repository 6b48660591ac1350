package expr

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite expr/testdata/*.golden from the current printers")

// goldenTrees are the fixed trees every printer is checked on.
var goldenTrees = []struct{ name, src string }{
	{"eq17", eq17},
	{"srsf", "g*d"},
	{"leaf", "q"},
	{"consts", "2.5 * (d - -0.75) / (q % 0) + -u - 1e21 * -0"},
	{"nested", "d - (q - g) * (u + (d - 1e-7))"},
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./expr -run Golden -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n got: %s\nwant: %s", path, got, want)
	}
}

func TestGoldenPrinters(t *testing.T) {
	for _, gt := range goldenTrees {
		tr := MustParse(gt.src)
		for _, f := range Formats() {
			out, err := Format(tr, f)
			if err != nil {
				t.Fatalf("Format(%s, %s): %v", gt.name, f, err)
			}
			golden(t, gt.name+"."+f+".golden", strings.TrimRight(out, "\n")+"\n")
		}
		// The simplified form and the canonical hash are pinned as well: the
		// learner's fitness cache depends on the hash staying stable.
		golden(t, gt.name+".simplified.golden", fmt.Sprintf("%s\nhash %016x\n", Simplify(tr), tr.Hash()))
	}
}

func TestInfixMinimalParentheses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"d - (q - g)", "d - (q - g)"},
		{"(d - q) - g", "d - q - g"},
		{"d + (q + g)", "d + (q + g)"},
		{"(d + q) + g", "d + q + g"},
		{"(d * q) + g", "d * q + g"},
		{"d * (q + g)", "d * (q + g)"},
		{"(d % q) * g", "d % q * g"},
		{"d % (q * g)", "d % (q * g)"},
		{"d / q", "d % q"},
		{"((d))", "d"},
		{"-3 * d", "-3 * d"},
		{"d * -3", "d * -3"},
		{"-d", "0 - d"},
	} {
		if got := MustParse(tc.in).String(); got != tc.want {
			t.Errorf("%s printed as %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestFormatOthers(t *testing.T) {
	tr := MustParse("d % (q - 1e21)")
	for _, tc := range []struct{ format, want string }{
		{"prefix", "(% d (- q 1e+21))"},
		{"latex", `\operatorname{pdiv}\left(d, q - 10^{21}\right)`},
		{"sympy", "from sympy import Eq, Lambda, Piecewise, symbols\n\nd, q = symbols(\"d q\")\n" +
			"# protected division (SPEC §5.2): pdiv(a, b) = a if b = 0, else a/b\n" +
			"_a, _b = symbols(\"_a _b\")\npdiv = Lambda((_a, _b), Piecewise((_a, Eq(_b, 0)), (_a/_b, True)))\n" +
			"priority = pdiv(d, q - 1e+21)\n"},
		{"json", `["%","d",["-","q",1e+21]]`},
	} {
		if got, _ := Format(tr, tc.format); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.format, got, tc.want)
		}
	}
	if got, _ := Format(MustParse("d - -2.5 * q"), "latex"); got != `d - \left(-2.5\right) \cdot q` {
		t.Errorf("latex with a negative constant: %s", got)
	}
	if _, err := Format(tr, "yaml"); err == nil || !strings.Contains(err.Error(), "infix, prefix") {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := Format(&Tree{}, "infix"); err == nil {
		t.Error("formatting the empty tree succeeded")
	}
	dot, _ := Format(MustParse(eq17), "dot")
	if n := strings.Count(dot, "[label="); n != 21 {
		t.Errorf("dot has %d nodes, want 21", n)
	}
	if n := strings.Count(dot, "->"); n != 20 {
		t.Errorf("dot has %d edges, want 20", n)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for range 1000 {
		tr := randTree(rng, 1+rng.IntN(7))
		b, err := json.Marshal(struct{ F *Tree }{tr})
		if err != nil {
			t.Fatalf("marshal %v: %v", tr, err)
		}
		var back struct{ F *Tree }
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if !back.F.Equal(tr) {
			t.Fatalf("JSON round trip of %v gave %v (%s)", tr, back.F, b)
		}
	}
	var x Tree
	if err := x.UnmarshalJSON([]byte(`["/", "d", -0]`)); err != nil || !x.Equal(Binary(OpDiv, Terminal(OpD), Constant(math.Copysign(0, -1)))) {
		t.Errorf(`["/", "d", -0] decoded to %v, %v`, &x, err)
	}
	for _, bad := range []string{`["^","d","q"]`, `"x"`, `["+","d"]`, `{}`, `1e999`, `["+","d",true]`, `"d" "q"`, ``, `[`} {
		y := MustParse("g")
		if err := y.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("UnmarshalJSON(%s) succeeded", bad)
		}
		if !y.Equal(MustParse("g")) {
			t.Errorf("failed UnmarshalJSON(%s) changed the receiver to %v", bad, y)
		}
	}
}

// goTrees are compiled and run as real Go: the Eq. 17 function, trees
// whose constant-only parts Go would otherwise fold exactly, a −0
// constant, products feeding sums (FMA candidates), and random trees.
func goTrees() []*Tree {
	trees := []*Tree{
		MustParse(eq17),
		MustParse("0.1 + 0.2 + d"),
		MustParse("(1e308 * 10) * d - 1e308 * 10"),
		MustParse("-0 * d + q % -0"),
		MustParse("d * q + g * u - (d * d) % q"),
		MustParse("(d % (q - q)) * 3 - -2"),
	}
	rng := rand.New(rand.NewPCG(41, 42))
	for range 30 {
		trees = append(trees, randTree(rng, 6))
	}
	return trees
}

func TestGoSourceParses(t *testing.T) {
	for _, tr := range goTrees() {
		src, err := Format(tr, "go")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := goparser.ParseFile(gotoken.NewFileSet(), "f.go", "package p\n"+src, 0); err != nil {
			t.Fatalf("generated Go for %v does not parse: %v\n%s", tr, err, src)
		}
		if strings.Contains(src, "pdiv") != tr.Uses(OpDiv) && !strings.Contains(src, "pdiv :=") {
			t.Errorf("pdiv helper mismatch for %v", tr)
		}
	}
}

// TestGoSourceCompilesAndAgrees writes the generated functions into a
// temporary module, runs it with `go run`, and compares every result bit
// for bit with Eval.
func TestGoSourceCompilesAndAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a Go program")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	trees := goTrees()
	inputs := [][4]float64{{2.5, 1, 1, 8}, {0, 0, 0, 0}, {-1.5, 3, 0.25, 4}, {1e300, 1e-300, -7, 2}, {3, 3, 3, 3}}
	var prog strings.Builder
	prog.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"math\"\n)\n\n")
	for i, tr := range trees {
		src, err := Format(tr, "go")
		if err != nil {
			t.Fatal(err)
		}
		prog.WriteString(strings.Replace(src, "func priority(", fmt.Sprintf("func priority%d(", i), 1))
		prog.WriteString("\n")
	}
	prog.WriteString("func main() {\n\tin := [][4]float64{")
	for _, in := range inputs {
		fmt.Fprintf(&prog, "{%v, %v, %v, %v}, ", in[0], in[1], in[2], in[3])
	}
	prog.WriteString("}\n\tfor _, x := range in {\n")
	for i := range trees {
		fmt.Fprintf(&prog, "\t\tfmt.Println(math.Float64bits(priority%d(x[0], x[1], x[2], x[3])))\n", i)
	}
	prog.WriteString("\t}\n}\n")

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gencheck\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s\n%s", err, out, prog.String())
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for _, in := range inputs {
		for _, tr := range trees {
			if !sc.Scan() {
				t.Fatalf("program output ended early:\n%s", out)
			}
			bits, err := strconv.ParseUint(sc.Text(), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			got := math.Float64frombits(bits)
			if want := tr.Eval(in[0], in[1], in[2], in[3]); !sameFloat(got, want) {
				t.Errorf("compiled Go of %v at %v = %v, Eval = %v", tr, in, got, want)
			}
		}
	}
}

func TestGoSourceShape(t *testing.T) {
	src, _ := Format(MustParse("0.1 + 0.2 + d * q"), "go")
	f, err := goparser.ParseFile(gotoken.NewFileSet(), "f.go", "package p\n"+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if x, ok := d.(*ast.FuncDecl); ok {
			fn = x
		}
	}
	if fn == nil || fn.Name.Name != "priority" || fn.Type.Params.NumFields() != 4 {
		t.Fatalf("want func priority(d, q, u, g float64) float64, got:\n%s", src)
	}
	// The constant-only sum must not be a Go constant expression, and the
	// product feeding + must be rounded explicitly.
	ret := src[strings.Index(src, "return "):]
	if strings.Contains(ret, "0.1 + 0.2") || !strings.Contains(ret, "float64(d*q)") {
		t.Errorf("generated Go is not float64-exact:\n%s", src)
	}
}

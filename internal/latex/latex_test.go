package latex

import (
	"context"
	"os"
	"strings"
	"testing"
)

// compileOrSkip compiles doc with pdflatex; without texlive it skips,
// except under CI=true, where .ci/run installs it and its absence is a
// failure.
func compileOrSkip(t *testing.T, doc string) {
	t.Helper()
	ok, err := Compile(context.Background(), doc)
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: pdflatex is not installed (apt-get install texlive-latex-base texlive-latex-recommended)")
		}
		t.Skip("pdflatex not installed")
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
}

func TestDisplayShapes(t *testing.T) {
	one := Display(Line{"f(d, g)", `g \cdot d`})
	if one != "\\begin{equation}\n  f(d, g) = g \\cdot d\n\\end{equation}\n" {
		t.Fatalf("one line: %q", one)
	}
	two := Display(Line{"R(j, p)", `W + \operatorname{pdiv}\left(f, n\right)`}, Line{"f(j)", `g \cdot d`})
	want := "\\begin{align}\n  R(j, p) &= W + \\operatorname{pdiv}\\left(f, n\\right) \\\\\n  f(j) &= g \\cdot d \\\\\n  " + pdivDefinition + " \\nonumber\n\\end{align}\n"
	if two != want {
		t.Fatalf("two lines:\n%s\nwant\n%s", two, want)
	}
	for _, d := range []string{one, two, Standalone(one), Standalone(two)} {
		if err := Check(d); err != nil {
			t.Fatalf("%v\n%s", err, d)
		}
		if strings.Contains(d, "\n%") || strings.Contains(d, "\n#") {
			t.Fatalf("comment line:\n%s", d)
		}
	}
}

func TestTableShape(t *testing.T) {
	tab := Table{Columns: []Column{{"$\\omega$", "r"}, {"$f$", "l"}}, Rows: [][]string{{"0.5", "$g \\cdot d$"}}, Caption: "Formulas"}
	s := tab.String()
	for _, w := range []string{"\\begin{tabular}{rl}", "\\toprule", "$\\omega$ & $f$ \\\\", "\\midrule", "0.5 & $g \\cdot d$ \\\\", "\\bottomrule", "\\caption{Formulas}"} {
		if !strings.Contains(s, w) {
			t.Fatalf("table lacks %q:\n%s", w, s)
		}
	}
	if err := Check(Standalone(s)); err != nil {
		t.Fatal(err)
	}
}

// Check catches each structural fault it documents.
func TestCheckRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"comment":        "% note\n\\begin{equation}\n x\n\\end{equation}\n",
		"hash comment":   "# objective.omega=0.5\n\\begin{equation}\n x\n\\end{equation}\n",
		"unknown":        "\\begin{equation}\n \\operatornmae{x}\n\\end{equation}\n",
		"unclosed env":   "\\begin{equation}\n x\n",
		"crossed":        "\\begin{align}\n\\begin{cases} x\\end{align}\\end{cases}\n",
		"braces":         "\\begin{equation}\n \\frac{x}{y\n\\end{equation}\n",
		"dollar":         "$x\n",
		"bare ampersand": "R &= x \\\\\nf &= y\n",
		"cells":          "\\begin{tabular}{rl}\n a & b & c \\\\\n\\end{tabular}\n",
		"align &&":       "\\begin{align}\n a &= b &= c\n\\end{align}\n",
		"no booktabs":    "\\documentclass{article}\n\\begin{document}\n\\begin{tabular}{l}\n\\toprule\n a \\\\\n\\bottomrule\n\\end{tabular}\n\\end{document}\n",
		"no amsmath":     "\\documentclass{article}\n\\begin{document}\n\\begin{align}\n a &= b\n\\end{align}\n\\end{document}\n",
		"no document":    "\\documentclass{article}\n x\n",
	} {
		if err := Check(doc); err == nil {
			t.Errorf("%s: accepted:\n%s", name, doc)
		}
	}
}

// The standalone documents compile with pdflatex.
func TestStandaloneCompiles(t *testing.T) {
	two := Display(Line{"R(j, p)", `W + 0.5 \cdot o - \operatorname{pdiv}\left(f, n\right)`}, Line{"f(j)", `g \cdot d + q`})
	tab := Table{Columns: []Column{{"$\\omega$", "r"}, {"formula", "l"}, {"AvgJCT (h)", "r"}}, Rows: [][]string{{"0.5", "$\\frac{g}{d}$", "12.3"}}, Caption: "x\\_y"}
	compileOrSkip(t, Standalone(two+tab.String()))
}

func FuzzCheck(f *testing.F) {
	f.Add(Standalone(Display(Line{"f", "x"})))
	f.Add("\\begin{tabular}{rl}\n a & b \\\\\n\\end{tabular}")
	f.Fuzz(func(t *testing.T, s string) { _ = Check(s) }) // never panics
}

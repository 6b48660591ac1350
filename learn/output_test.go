package learn

import (
	"context"
	"encoding/csv"
	"github.com/evogp/evogp/internal/latex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
)

func mustParse(t *testing.T, s string) *expr.Tree {
	t.Helper()
	tr, err := expr.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// formula.tex's signature lists exactly the terminals the formula uses,
// and the pdiv note appears only when the formula divides.
func TestFormulaTeXSignature(t *testing.T) {
	for _, c := range []struct{ formula, sig string }{
		{"q - a", "f(q, a) = "}, {"g * d", "f(d, g) = "}, {"3", "f = "}, {"d / (q + 1)", "f(d, q) = \\frac{d}{q + 1}"}, {"d / q", "f(d, q) &= "},
	} {
		b, err := formulaTeX(nil, mustParse(t, c.formula))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.Contains(s, "\n  "+c.sig) {
			t.Errorf("%s: %q lacks signature %q", c.formula, s, c.sig)
		}
		if got := strings.Contains(s, "pdiv"); got != strings.Contains(c.formula, "/ q") {
			t.Errorf("%s: pdiv note %v in %q", c.formula, got, s)
		}
		if err := latex.Check(s); err != nil {
			t.Errorf("%s: %v\n%s", c.formula, err, s)
		}
	}
}

// A two-tree run's formula.tex holds both trees in one align block with
// the pdiv definition, no comment lines, and compiles standalone.
func TestFormulaTeXTwoTrees(t *testing.T) {
	r, err := expr.Routing.Parse("W + 0.5*o - f % n")
	if err != nil {
		t.Fatal(err)
	}
	b, err := formulaTeX(r, mustParse(t, "g * d + q"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, w := range []string{"\\begin{align}\n", "  R(j, p) &= W + 0.5 \\cdot o - \\operatorname{pdiv}", "  f(j) &= g \\cdot d + q \\\\\n", "\\nonumber\n\\end{align}\n"} {
		if !strings.Contains(s, w) {
			t.Errorf("formula.tex lacks %q:\n%s", w, s)
		}
	}
	if err := latex.Check(s); err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	if ok, err := latex.Compile(context.Background(), latex.Standalone(s)); ok && err != nil {
		t.Fatal(err)
	}
}

// hall_of_fame.csv simplifies a − a, d % d and d − d − a on the
// simulator's domain, flags constants, and marks an entry that computes
// the same function as a better one (same simplified form) or behaves the
// same on the sample (same phenotype) with that entry's rank.
func TestWriteHallSimplifiesAndMarksDuplicates(t *testing.T) {
	hall := []HallEntry{
		{Tree: mustParse(t, "g * d")},
		{Tree: mustParse(t, "a - a")},
		{Tree: mustParse(t, "d % d")},
		{Tree: mustParse(t, "d - d - a")},
		{Tree: mustParse(t, "d * g")},
		{Tree: mustParse(t, "0 - a")},
		{Tree: mustParse(t, "2 * (g * d)")},
	}
	// Behaviour: 2·g·d ranks like g·d, every constant alike (arrival
	// order); everything else by its form.
	pheno := func(tr *expr.Tree) uint64 {
		s := expr.SimplifyOn(tr, expr.DefaultDomain()).String()
		if expr.SimplifyOn(tr, expr.DefaultDomain()).Terminals() == 0 {
			s = "0"
		}
		if s == "2 * (d * g)" || s == "2 * d * g" {
			s = "d * g"
		}
		return expr.MustParse(s).Hash()
	}
	path := filepath.Join(t.TempDir(), HallFile)
	if err := writeHall(path, hall, pheno, 0, nil); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var got []string
	for _, r := range recs[1:] {
		got = append(got, r[col["simplified"]]+"|"+r[col["constant"]]+"|"+r[col["same_as"]])
		if r[col["reduced"]] != "false" || r[col["readable"]] != expr.Readable(expr.MustParse(r[col["simplified"]]), expr.DefaultDomain()) {
			t.Errorf("no reduction: readable %q, reduced %q", r[col["readable"]], r[col["reduced"]])
		}
	}
	want := []string{"d * g|false|", "0|true|", "1|true|2", "0 - a|false|", "d * g|false|1", "0 - a|false|4", got[6]}
	if !strings.HasSuffix(got[6], "|false|1") {
		t.Errorf("2·g·d: %q, want same_as 1 (same behaviour)", got[6])
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hall rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without a sample, only equal forms are duplicates.
	if err := writeHall(path, hall, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasSuffix(strings.TrimSpace(string(b)), ",false,") {
		t.Errorf("without behaviour 2·g·d is not a duplicate: %s", b)
	}
}

package expr

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"math/rand/v2"
	"strings"
	"testing"
)

// The Go export reads as code a reviewer would accept (issue 44): pdiv's
// parameters shadow no terminal (a job variable a, say), every named
// parameter is used, unused ones are blank, and every named parameter is
// documented in the doc comment with its catalogue meaning.
func TestGoExportIdiomatic(t *testing.T) {
	trees := []*Tree{MustParse("a % (q + 1) - w"), MustParse("g*d + q"), MustParse("3"), MustParse(eq17)}
	if r, err := Routing.Parse("W + 0.5*o - f % n + m"); err == nil {
		trees = append(trees, r)
	} else {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		trees = append(trees, randTree(rng, 5))
	}
	for _, tr := range trees {
		src, err := Format(tr, "go")
		if err != nil {
			t.Fatal(err)
		}
		file, err := goparser.ParseFile(gotoken.NewFileSet(), "f.go", "package p\n"+src, goparser.ParseComments)
		if err != nil {
			t.Fatalf("%v: %v\n%s", tr, err, src)
		}
		fn := file.Decls[0].(*ast.FuncDecl)
		params := map[string]bool{}
		for _, f := range fn.Type.Params.List {
			for _, n := range f.Names {
				params[n.Name] = true
			}
		}
		used := map[string]bool{}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				used[n.Name] = true
			case *ast.FuncLit:
				for _, f := range n.Type.Params.List {
					for _, name := range f.Names {
						if params[name.Name] {
							t.Errorf("%v: pdiv's parameter %s shadows the input %s\n%s", tr, name.Name, name.Name, src)
						}
						if _, ok := tr.Catalogue().VariableByName(name.Name); ok {
							t.Errorf("%v: pdiv's parameter %s is a terminal's name\n%s", tr, name.Name, src)
						}
					}
				}
			}
			return true
		})
		doc := fn.Doc.Text()
		for name := range params {
			if name == "_" {
				continue
			}
			if !used[name] {
				t.Errorf("%v: parameter %s is unused\n%s", tr, name, src)
			}
			if !strings.Contains(doc, "  - "+name+": ") {
				t.Errorf("%v: parameter %s is not documented\n%s", tr, name, src)
			}
		}
		for _, op := range tr.Terminals().Ops() {
			if !params[tr.Catalogue().Name(op)] {
				t.Errorf("%v: terminal %s is not a parameter\n%s", tr, tr.Catalogue().Name(op), src)
			}
		}
	}
}

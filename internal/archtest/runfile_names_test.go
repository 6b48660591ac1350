package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// learnCopiesOfRunfile are learn's names for runfile's types and
// constants: the declarations in learn's non-test files whose value or
// type is runfile.X (type BestJSON = runfile.Best, const BestFile =
// runfile.BestFile, …).
func learnCopiesOfRunfile(t *testing.T, root string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "learn", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	isRunfile := func(e ast.Expr) (string, bool) {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		x, ok := sel.X.(*ast.Ident)
		return sel.Sel.Name, ok && x.Name == "runfile"
	}
	names := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range src.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if y, ok := isRunfile(s.Type); ok && s.Assign.IsValid() {
						names[s.Name.Name] = y
					}
				case *ast.ValueSpec:
					for i, v := range s.Values {
						if y, ok := isRunfile(v); ok && g.Tok == token.CONST {
							names[s.Names[i].Name] = y
						}
					}
				}
			}
		}
	}
	return names
}

// TestRunfileNamesOutsideLearn: learn keeps its old names of runfile's
// types and constants (learn.BestJSON, learn.BestFile, …) for its own
// code; every other package, tests included, says runfile.X, so that
// what a run writes has one name.
func TestRunfileNamesOutsideLearn(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	copies := learnCopiesOfRunfile(t, root)
	if copies["BestJSON"] != "Best" || copies["BestFile"] != "BestFile" {
		t.Fatalf("learn's copies of runfile's names not found: %v", copies)
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "learn" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		local := ""
		for _, imp := range src.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/learn" {
				local = "learn"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			return nil
		}
		ast.Inspect(src, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
				if y, ok := copies[sel.Sel.Name]; ok {
					t.Errorf("%s: %s.%s is runfile.%s: name it so", fset.Position(sel.Pos()), local, sel.Sel.Name, y)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked", checked)
	}
}

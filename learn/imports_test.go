package learn

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// learn's allowed evogp imports (doc.go): it must not import reports or
// the command layer.
func TestImports(t *testing.T) {
	allowed := map[string]bool{
		"expr": true, "simcore": true, "datasets": true, "configs": true,
		"internal/atomicio": true, "internal/parallel": true, "internal/progress": true,
		"internal/stats": true, "internal/runlog": true,
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/evogp/evogp/"
	checked := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, module) && !allowed[strings.TrimPrefix(path, module)] {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source files")
	}
}

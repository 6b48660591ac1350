package reports

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// allowedImport are the evogp packages reports may import: small shared
// helpers, none of which simulates.
var allowedImport = map[string]bool{
	"internal/atomicio": true, "internal/stats": true, "internal/figure": true,
	"internal/tablefile": true, "internal/runlog": true,
}

// reports takes tables, never simulations: of evogp's packages it may
// import only the helpers in allowedImport (SPEC §1, §10).
func TestImportsNoSimulator(t *testing.T) {
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
			if strings.HasPrefix(path, module) && !allowedImport[strings.TrimPrefix(path, module)] {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source files found")
	}
}

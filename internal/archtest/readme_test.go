package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestReadmeLayoutListsEveryPackage: README's layout table has one row per
// package of the module (a new package comes with its line), and every row
// names a folder that exists.
func TestReadmeLayoutListsEveryPackage(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(b), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no ## Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	rows := map[string]int{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)/` \\|").FindAllStringSubmatch(layout, -1) {
		rows[m[1]]++
	}
	if len(rows) == 0 {
		t.Fatal("README.md's layout table has no `folder/` rows")
	}
	for rel, n := range rows {
		if n > 1 {
			t.Errorf("README layout lists %s/ %d times", rel, n)
		}
		if st, err := os.Stat(filepath.Join(root, rel)); err != nil || !st.IsDir() {
			t.Errorf("README layout lists %s/, which is not a folder of the repository", rel)
		}
	}
	for full := range listPackages(t) {
		rel, ok := strings.CutPrefix(full, module+"/")
		if ok && rows[rel] == 0 {
			t.Errorf("README layout has no row for package %s: add | `%s/` | what it holds |", rel, rel)
		}
	}
}

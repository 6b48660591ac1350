package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
)

// Every config key the README and docs/RESULTS.md name in backticks
// (`gp.seed`, `objective.omega=0.3`, ...), and every key=value override in
// backticks anywhere in docs/, is a key the tool accepts (an override key,
// or a list set in YAML only such as generator.types), so the docs cannot
// name a key (gp.omega) that does not exist. Elsewhere in docs/ a bare
// `sim.open` names Go code, not a key.
func TestDocsNameRealConfigKeys(t *testing.T) {
	root := moduleRoot(t)
	keys := configs.Keys()
	sections := map[string]bool{}
	for _, k := range keys {
		if s, _, ok := strings.Cut(k, "."); ok {
			sections[s] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "README.md"))
	span := regexp.MustCompile("`([a-z_]+)\\.([a-z_0-9]+)([=` ])")
	real := func(section, key string) bool {
		if slices.Contains(keys, section+"."+key) {
			return true
		}
		_, err := configs.Parse("docs", []byte(section+":\n  "+key+": []\n"))
		return err == nil
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range span.FindAllStringSubmatch(string(b), -1) {
			userFacing := filepath.Base(f) == "README.md" || filepath.Base(f) == "RESULTS.md"
			if !sections[m[1]] || (!userFacing && m[3] != "=") {
				continue
			}
			key := m[1] + "." + m[2]
			checked++
			if !real(m[1], m[2]) {
				t.Errorf("%s names `%s`, which is not a config key", filepath.Base(f), key)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no config key found in the docs: the pattern is wrong")
	}
}

package archtest

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/evogp/evogp"

// rule says which evogp packages the packages matching pkg may depend on.
// Patterns are module-relative; "x/..." matches x and everything below it.
type rule struct {
	pkg string
	may []string
}

// everything but the command layer.
var allButCmd = []string{"expr", "runfile", "simcore/...", "configs", "formula", "internal/...", "datasets/...", "learn/...", "reports/...", "estimate/...", "hydra/...", "policies", "launch", "experiment/..."}

// rules are SPEC §1's dependency directions; the first matching rule
// applies.
var rules = []rule{
	{"expr", nil},
	{"runfile", []string{"expr", "internal/..."}}, // what a run writes (best.json, file names, the objective record): a leaf every layer reads through
	{"simcore", nil},
	{"simcore/evo", []string{"simcore", "internal/..."}},                                                      // EVO and mct-all, through the allocation seam only
	{"simcore/rule", []string{"simcore", "expr", "internal/..."}},                                             // the rule allocator (SPEC §16): the seam and routing trees only
	{"simcore/...", []string{"simcore/...", "internal/..."}},                                                  // policies beside the engine
	{"configs", []string{"datasets", "runfile", "simcore/...", "expr", "internal/..."}},                       // Generator.Settings returns a datasets.GenSettings; the evo section validates with evo.Params
	{"formula", []string{"expr", "runfile", "simcore", "configs", "datasets", "simcore/...", "internal/..."}}, // a saved formula as a ranking, without the learner
	{"internal/pareto", nil},                              // pure arithmetic of fronts (SPEC §17)
	{"internal/profiling", []string{"internal/atomicio"}}, // Go profiles of a command, written atomically
	{"internal/cliargs", nil},                             // command-line words: trailing flags, completion candidates and scripts
	{"internal/signalrun", nil},                           // a command cancelled by SIGINT/SIGTERM, and its exit status
	{"internal/slurmcli", nil},                            // the one way evogp runs Slurm commands (launcher and deploy), with its fake
	{"internal/...", []string{"internal/..."}},
	{"datasets/...", []string{"simcore", "datasets/...", "internal/..."}},
	{"learn/...", []string{"expr", "runfile", "simcore/...", "policies", "hydra/...", "datasets/...", "configs", "formula", "learn/...", "internal/..."}}, // hydra only through policies
	// The HTML report of an output directory: it reads what a run writes
	// through runfile (best.json, the manifest, provenance, config.yaml)
	// and is told the rest by experiment (runreport.Env, Tables). Never
	// learn, the registry, experiment, launch or cmd.
	{"reports/runreport", []string{"reports/...", "internal/...", "expr", "runfile"}},
	{"reports/...", []string{"reports/...", "internal/..."}},
	{"estimate/...", []string{"simcore", "estimate/...", "internal/..."}},
	{"hydra/...", []string{"simcore", "hydra/..."}},
	{"policies", []string{"simcore/...", "hydra/...", "expr", "internal/..."}}, // the one registry: simcore's built-ins + evo + rule (routing trees: expr) + hydra
	{"launch", []string{"internal/..."}},                                       // task directories and their local, Slurm and k8s launchers (SPEC §15); what a task kind runs is injected by experiment
	{"experiment/...", allButCmd},
	{"deploy/...", append([]string{"deploy/..."}, allButCmd...)}, // a learned scheduler on a live queue (SPEC §20), built as simulate builds it (experiment); only cmd imports it
	{"cmd/...", append([]string{"cmd/...", "deploy/..."}, allButCmd...)},
	{"scripts/...", allButCmd}, // study tools (go run ./scripts/...), beside the command layer
}

func match(pattern, rel string) bool {
	if p, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == p || strings.HasPrefix(rel, p+"/")
	}
	return rel == pattern
}

// pkgInfo is what `go list` says about one package.
type pkgInfo struct {
	imports []string // direct non-test imports
	deps    []string // transitive non-test dependencies
}

// listPackages runs `go list -deps`-style queries over the module.
func listPackages(t *testing.T) map[string]pkgInfo {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkgInfo{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			t.Fatalf("go list line %q", line)
		}
		pkgs[parts[0]] = pkgInfo{imports: ownPackages(parts[1]), deps: ownPackages(parts[2])}
	}
	return pkgs
}

// ownPackages keeps the module's packages of a space-separated list,
// module-relative.
func ownPackages(list string) []string {
	var out []string
	for _, p := range strings.Fields(list) {
		if rel, ok := strings.CutPrefix(p, module+"/"); ok {
			out = append(out, rel)
		}
	}
	return out
}

// chain is an import path from pkg to dep through direct imports, for the
// error message.
func chain(pkgs map[string]pkgInfo, pkg, dep string) string {
	prev := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == dep {
			var path []string
			for p := cur; p != ""; p = prev[p] {
				path = append(path, p)
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return strings.Join(path, " → ")
		}
		for _, n := range pkgs[module+"/"+cur].imports {
			if _, seen := prev[n]; !seen {
				prev[n] = cur
				queue = append(queue, n)
			}
		}
	}
	return pkg + " → … → " + dep
}

// TestImportRules checks every package of the module against rules.
func TestImportRules(t *testing.T) {
	pkgs := listPackages(t)
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, full := range names {
		rel, ok := strings.CutPrefix(full, module+"/")
		if !ok {
			continue // the module root has no package
		}
		var r *rule
		for i := range rules {
			if match(rules[i].pkg, rel) {
				r = &rules[i]
				break
			}
		}
		if r == nil {
			t.Errorf("package %s has no import rule: add one to internal/archtest (and its doc.go) following SPEC §1", rel)
			continue
		}
		for _, dep := range pkgs[full].deps {
			allowed := false
			for _, m := range r.may {
				allowed = allowed || match(m, dep)
			}
			if !allowed {
				t.Errorf("%s must not depend on %s (rule %q may import %v): %s",
					rel, dep, r.pkg, r.may, chain(pkgs, rel, dep))
			}
		}
	}
}

// TestRulesCatchViolations runs the rule matcher on hand-made cases, so
// that a broken matcher cannot pass everything.
func TestRulesCatchViolations(t *testing.T) {
	may := func(pkg, dep string) bool {
		for _, r := range rules {
			if match(r.pkg, pkg) {
				for _, m := range r.may {
					if match(m, dep) {
						return true
					}
				}
				return false
			}
		}
		t.Fatalf("no rule for %s", pkg)
		return false
	}
	cases := []struct {
		pkg, dep string
		ok       bool
	}{
		{"expr", "simcore", false},
		{"simcore", "internal/atomicio", false},
		{"datasets", "configs", false},
		{"datasets", "simcore", true},
		{"datasets/philly", "datasets", true},
		{"datasets/philly", "internal/tracefiles", true},
		{"learn", "reports", false},
		{"learn", "datasets/philly", true},
		{"reports", "simcore", false},
		{"reports", "internal/atomicio", true},
		{"experiment", "learn", true},
		{"experiment", "cmd/evogp", false},
		{"learn", "experiment", false},
		{"cmd/evogp", "experiment", true},
		{"internal/progress", "reports", false},
		{"internal/profiling", "internal/atomicio", true},
		{"internal/profiling", "internal/progress", false},
		{"launch", "internal/slurmcli", true},
		{"launch", "experiment", false},
		{"launch", "configs", false},
		{"experiment", "launch", true},
		{"reports/runreport", "learn", false},
		{"reports/runreport", "runfile", true},
		{"reports/runreport", "policies", false},
		{"reports/runreport", "experiment", false},
		{"reports/runreport", "launch", false},
		{"reports/htmlreport", "learn", false},
		{"reports", "reports/runreport", true}, // allowed by name, refused transitively (runreport reaches runfile and expr)
		{"formula", "learn", false},
		{"formula", "configs", true},
		{"learn", "formula", true},
	}
	for _, c := range cases {
		if got := may(c.pkg, c.dep); got != c.ok {
			t.Errorf("%s may import %s: got %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
}

// TestEvalPathWithoutLearner: evaluating a saved policy does not import
// the learner. Of experiment's files only learn.go and cmd_learn.go, which
// run the learner, cmd_data_describe.go (its warning is the learner's
// flat-baselines check), and the two that read a learner run with the
// learner's checks (front.go: learn.ReadBest's terminal check and the
// run's config; cmd_export.go: a front member or a routing tree for
// evogp export) may import learn. best.json's types are runfile's, so the
// HTML report (reports/runreport, whose rule forbids learn), the formula
// ranking and the loader of a run's best.json (formula) read a learn
// directory without the learner.
func TestEvalPathWithoutLearner(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "experiment")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("experiment sources: %v (%d files)", err, len(files))
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if base := filepath.Base(f); strings.HasSuffix(f, "_test.go") || base == "learn.go" || base == "cmd_learn.go" || base == "cmd_data_describe.go" || base == "front.go" || base == "cmd_export.go" {
			continue
		}
		src, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range src.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/learn" || strings.HasPrefix(p, module+"/learn/") {
				t.Errorf("experiment/%s imports %s: the eval path must not need the learner (move what it uses to formula or configs)", filepath.Base(f), p)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d experiment files checked", checked)
	}
}

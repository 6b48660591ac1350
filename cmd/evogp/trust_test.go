package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/runfile"
)

// Each test here states an everyday-use rule: a run that would be wrong,
// lose results or leave its output unexplained is refused or recorded.

// --priority with a scheduler that has its own ranking would silently
// replace it (only the label changed); it is an error.
func TestSimulatePriorityNeedsFormulaRanking(t *testing.T) {
	dir := writeHandDataset(t)
	for _, sched := range []string{"tiresias", "lyra", "mct+srsf+bestfit"} {
		_, _, err := runApp(t, "simulate", "--dataset", dir, "--quiet", "--scheduler", sched, "--priority", "0-g*d")
		if err == nil || !strings.Contains(err.Error(), "own ranking") {
			t.Errorf("%s --priority: err = %v", sched, err)
		}
	}
	if _, _, err := runApp(t, "simulate", "--dataset", dir, "--quiet", "--scheduler", "user+formula+roundrobin", "--priority", "0-g*d"); err != nil {
		t.Errorf("formula ranking with --priority: %v", err)
	}
}

// Settings that would give a silently wrong run are errors.
func TestBadSettingsAreErrors(t *testing.T) {
	data := smokeDataset(t)
	tmp := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--dataset", data, "--quiet", "--out", filepath.Join(tmp, "e1"), "--reference", "nosuch"}, `reference "nosuch" is not one of the schedulers`},
		{[]string{"eval", "--dataset", data, "--quiet", "--out", filepath.Join(tmp, "e2"), "--workers", "-1"}, "workers = -1"},
		{[]string{"simulate", "--dataset", data, "--quiet", "--workers", "-1"}, "workers = -1"},
		{[]string{"pressure", "--quiet", "--out", filepath.Join(tmp, "p"), "--jobs", "5", "--workers", "-1"}, "workers = -1"},
		{[]string{"learn", "--quiet", "--config", "smoke", "--out", filepath.Join(tmp, "l"), "--jobs", "2"}, "needs -m"},
		{[]string{"learn", "--quiet", "--config", "smoke", "--out", filepath.Join(tmp, "l"), "objective.omega=0,1"}, "learn -m"},
		{[]string{"learn", "--quiet", "--config", "smoke", "--out", filepath.Join(tmp, "l"), "seed=1.5"}, `seed wants an integer ≥ 0, got "1.5"`},
		{[]string{"learn", "--quiet", "--config", "smoke", "--out", filepath.Join(tmp, "l"), "gp.populaton=8"}, `did you mean "gp.population"`},
	}
	for _, c := range cases {
		_, _, err := runApp(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
	for _, d := range []string{"e1", "e2", "p", "l"} {
		assertAbsent(t, filepath.Join(tmp, d))
	}
	// report: a named reference must be in the table.
	out := filepath.Join(tmp, "ok")
	if _, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", out, "--format", "svg", "--schedulers", "spark,lyra"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runApp(t, "report", out, "--reference", "nosuch"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("report --reference nosuch: err = %v", err)
	}
	if _, _, err := runApp(t, "report", out, "--reference", "lyra"); err != nil {
		t.Errorf("report --reference lyra: %v", err)
	}
}

// Flags may follow key=value overrides.
func TestFlagsAfterOverrides(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	if _, _, err := runApp(t, "data", "gen", "generator.nodes=2,3", "--config", "smoke", "--instances", "1", "--out", dir); err != nil {
		t.Fatalf("data gen with flags after the overrides: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dataset.yaml")); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(t.TempDir(), "run")
	if _, _, err := runApp(t, "learn", "gp.generations=1", "--config", "smoke", "--quiet", "--out", run); err != nil {
		t.Fatalf("learn with flags after the overrides: %v", err)
	}
	if _, err := os.Stat(filepath.Join(run, runfile.BestFile)); err != nil {
		t.Fatal(err)
	}
}

// pressure, like eval, never replaces an earlier result without --force.
func TestPressureForce(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p")
	args := []string{"pressure", "--quiet", "--out", out, "--format", "svg", "--schedulers", "spark", "--intervals", "600", "--seeds", "1", "--jobs", "5"}
	if _, _, err := runApp(t, args...); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("second pressure without --force: err = %v", err)
	}
	if _, _, err := runApp(t, append(args, "--force")...); err != nil {
		t.Fatalf("with --force: %v", err)
	}
}

// evogp --version, and every output directory records its provenance.
func TestVersionAndProvenance(t *testing.T) {
	out, _, err := runApp(t, "--version")
	if err != nil || !strings.Contains(out, "evogp version") || !strings.Contains(out, runtime.Version()) {
		t.Fatalf("--version: %q, %v", out, err)
	}
	data := smokeDataset(t)
	eval := filepath.Join(t.TempDir(), "eval")
	if _, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--format", "svg", "--out", eval, "--schedulers", "spark"); err != nil {
		t.Fatal(err)
	}
	var provs []experiment.Provenance
	b, _ := os.ReadFile(filepath.Join(eval, experiment.ProvenanceFile))
	if err := json.Unmarshal(b, &provs); err != nil || len(provs) != 1 {
		t.Fatalf("eval provenance.json: %v, %d entries", err, len(provs))
	}
	p := provs[0]
	if p.GoVersion != runtime.Version() || p.Host == "" || p.Start.IsZero() || p.Version == "" ||
		len(p.Command) < 3 || p.Command[1] != "eval" {
		t.Fatalf("eval provenance %+v", p)
	}
	// The marker stays free of time and host, so identical inputs still
	// give an identical evogp.json.
	if m, _ := os.ReadFile(filepath.Join(eval, experiment.MarkerFile)); strings.Contains(string(m), `"host"`) || strings.Contains(string(m), `"start"`) {
		t.Errorf("evogp.json records the host or the start time:\n%s", m)
	}
	run := filepath.Join(t.TempDir(), "run")
	if _, _, err := runApp(t, "learn", "--config", "smoke", "--quiet", "--out", run, "gp.generations=1"); err != nil {
		t.Fatal(err)
	}
	var runProv []experiment.Provenance
	b, _ = os.ReadFile(filepath.Join(run, experiment.ProvenanceFile))
	if err := json.Unmarshal(b, &runProv); err != nil || len(runProv) != 1 || runProv[0].Command[len(runProv[0].Command)-1] != "gp.generations=1" {
		t.Fatalf("run provenance: %v %+v", err, runProv)
	}
}

// A learning run without --out goes to runs/ and runs/latest points at it.
func TestRunsLatest(t *testing.T) {
	t.Chdir(t.TempDir())
	for range 2 {
		if _, _, err := runApp(t, "learn", "--config", "smoke", "--quiet", "gp.generations=0"); err != nil {
			t.Fatal(err)
		}
	}
	target, err := os.Readlink(filepath.Join("runs", "latest"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("runs", target, runfile.BestFile)); err != nil {
		t.Fatalf("runs/latest → %s: %v", target, err)
	}
}

func TestCompletionAndMan(t *testing.T) {
	bash, _, err := runApp(t, "completion", "bash")
	if err != nil || !strings.Contains(bash, "complete -o default -F _evogp_complete evogp") || !strings.Contains(bash, "--generate-bash-completion") {
		t.Fatalf("bash completion: %v\n%s", err, bash)
	}
	fish, _, err := runApp(t, "completion", "fish")
	if err != nil || !strings.Contains(fish, "complete -c evogp") || !strings.Contains(fish, "learn") {
		t.Fatalf("fish completion: %v\n%s", err, fish)
	}
	if _, _, err := runApp(t, "completion", "tcsh"); err == nil {
		t.Error("unknown shell accepted")
	}
	man, _, err := runApp(t, "man")
	if err != nil || !strings.Contains(man, ".TH") || !strings.Contains(man, "pressure") || !strings.Contains(man, "--schedulers") {
		t.Fatalf("man page: %v\n%.300s", err, man)
	}
}

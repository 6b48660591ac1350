package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/reports"
)

// smokeDataset generates a two-instance dataset with the smoke config.
func smokeDataset(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	if _, _, err := runApp(t, "data", "gen", "--config", "smoke", "--instances", "2", "--seed", "3", "--out", dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeBest writes a best.json with the given content into a new run
// directory and returns the directory.
func writeBest(t *testing.T, content string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "best.json"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func assertAbsent(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("%s exists after a failed command", path)
	}
}

func TestEvalWritesTablesSummaryAndFigures(t *testing.T) {
	data := smokeDataset(t)
	run := writeBest(t, `{"infix": "g * d", "simplified": "g*d"}`)
	out := filepath.Join(t.TempDir(), "eval")
	stdout, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", out,
		"--schedulers", "tiresias,spark,gp="+run+",file="+filepath.Join(run, "best.json")+",mine=g*d+0*q")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "5 schedulers × 2 instances") {
		t.Fatalf("stdout %q", stdout)
	}
	for _, f := range []string{"results.parquet", "jobs.parquet", "summary.md", "summary.csv", experiment.MarkerFile,
		"ranking.png", "ranking.svg", "breakdown_mean.svg", "breakdown_inst-0000.svg", "queue_density_inst-0000.svg", "jct_cdf.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := reports.ReadResults(filepath.Join(out, "results.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 10 {
		t.Fatalf("%d result rows, want 5 × 2", len(rows))
	}
	// g*d ranks exactly like SRSF (g × remaining duration): every formula
	// entry must reproduce tiresias on every instance.
	obj := map[string]map[string]float64{}
	for _, r := range rows {
		if obj[r.Scheduler] == nil {
			obj[r.Scheduler] = map[string]float64{}
		}
		obj[r.Scheduler][r.Instance] = r.Objective
	}
	for _, label := range []string{"gp", "file", "mine"} {
		for inst, v := range obj["tiresias"] {
			if obj[label][inst] != v {
				t.Fatalf("%s on %s: %v, tiresias %v", label, inst, obj[label][inst], v)
			}
		}
	}
	jobs, err := reports.ReadJobs(filepath.Join(out, "jobs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if n := rows[0].Jobs + rows[1].Jobs; int64(len(jobs)) != 5*n {
		t.Fatalf("%d job rows, want 5 × %d", len(jobs), n)
	}
	var man experiment.EvalManifest
	b, _ := os.ReadFile(filepath.Join(out, experiment.MarkerFile))
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	if man.Command != "eval" || len(man.Schedulers) != 5 || man.Schedulers[2].Source != "g * d" {
		t.Fatalf("manifest %+v", man)
	}
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if !strings.Contains(string(md), " = mine | 2 |") { // g*d+0*q is tiresias on this data: one row
		t.Fatalf("summary.md:\n%s", md)
	}

	// Same inputs, same bytes; an evogp directory may be replaced.
	again := filepath.Join(t.TempDir(), "eval2")
	if _, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", again, "--workers", "1",
		"--schedulers", "tiresias,spark,gp="+run+",file="+filepath.Join(run, "best.json")+",mine=g*d+0*q"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"results.parquet", "jobs.parquet", "summary.csv", "ranking.svg", "queue_density_inst-0000.svg"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(again, f))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s differs between runs with 1 and all workers", f)
		}
	}
	// An earlier evaluation is never replaced silently: without --force
	// it is refused and left intact.
	before, _ := os.ReadFile(filepath.Join(out, "results.parquet"))
	_, _, err = runApp(t, "eval", "--dataset", data, "--quiet", "--out", out, "--schedulers", "lyra", "--format", "svg")
	if err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("replacing an evogp directory without --force: err = %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "results.parquet")); !bytes.Equal(before, after) {
		t.Fatal("a refused eval changed the earlier results")
	}
	if _, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", out, "--schedulers", "lyra", "--format", "svg", "--force"); err != nil {
		t.Fatalf("replacing an evogp directory with --force: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "ranking.png")); !os.IsNotExist(err) {
		t.Fatal("the replaced directory kept an old file")
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("leftover %s", e.Name())
		}
	}
}

func TestEvalBadInput(t *testing.T) {
	data := smokeDataset(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"bad best.json", []string{"--schedulers", "gp=" + writeBest(t, `{"infix": "g *`)}, "not valid JSON"},
		{"best.json without infix", []string{"--schedulers", "gp=" + writeBest(t, `{"tree": null}`)}, `no "infix"`},
		{"infix that does not parse", []string{"--schedulers", "gp=" + writeBest(t, `{"infix": "g * * d"}`)}, "column"},
		{"missing best.json", []string{"--schedulers", "gp=" + filepath.Join(tmp, "nope.json")}, "nope.json"},
		{"unknown scheduler", []string{"--schedulers", "tiresias,fastest"}, `unknown scheduler "fastest"`},
		{"bad formula", []string{"--schedulers", "mine=g*(d"}, "formula"},
		{"path that is not a run", []string{"--schedulers", "gp=runs/none/x"}, "neither a run directory"},
		{"duplicate label", []string{"--schedulers", "tiresias,tiresias"}, "appears twice"},
		{"empty entry", []string{"--schedulers", "tiresias,,spark"}, "empty entry"},
		{"bad format", []string{"--format", "png,gif"}, `format "gif"`},
		{"unknown instance", []string{"--instance", "inst-9999"}, "not in dataset"},
		{"stray argument", []string{"tiresias"}, "unexpected argument"},
	}
	for _, c := range cases {
		args := append([]string{"eval", "--dataset", data, "--quiet", "--out", out}, c.args...)
		_, _, err := runApp(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
		assertAbsent(t, out)
	}

	// A dataset with no instances.
	empty := filepath.Join(tmp, "empty")
	os.MkdirAll(empty, 0o755)
	os.WriteFile(filepath.Join(empty, "clusters.csv"), []byte("instance,cluster,nodes,gpus_per_node\n"), 0o644)
	os.WriteFile(filepath.Join(empty, "jobs.csv"), []byte("instance,job,arrival,cluster,duration,workers,gpus,priority\n"), 0o644)
	if _, _, err := runApp(t, "eval", "--dataset", empty, "--quiet", "--out", out); err == nil {
		t.Error("a dataset without instances was accepted")
	}
	assertAbsent(t, out)

	// An existing, non-empty directory not written by evogp is left alone.
	foreign := filepath.Join(tmp, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	_, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", foreign, "--schedulers", "spark")
	if err == nil || !strings.Contains(err.Error(), "not written by evogp") {
		t.Fatalf("foreign dir: err = %v", err)
	}
	entries, _ := os.ReadDir(foreign)
	if len(entries) != 1 {
		t.Fatalf("foreign dir now holds %d entries", len(entries))
	}
}

func TestEvalHelp(t *testing.T) {
	out, _, err := runApp(t, "eval", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Examples:", "--schedulers", "LABEL=SOURCE", experiment.MarkerFile} {
		if !strings.Contains(out, want) {
			t.Fatalf("help lacks %q:\n%s", want, out)
		}
	}
}

// A learner run's gp.time_unit decides how its formula reads d and q,
// unless --time-unit is given.
func TestEvalFormulaTimeUnitFromRun(t *testing.T) {
	data := smokeDataset(t)
	run := writeBest(t, `{"infix": "d + 100*q"}`)
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	cfg.GP.TimeUnit = "seconds"
	b, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "config.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	units := func(extra ...string) []string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "e")
		args := append([]string{"eval", "--dataset", data, "--quiet", "--format", "svg", "--out", out, "--schedulers", "gp=" + run + ",mine=d"}, extra...)
		if _, _, err := runApp(t, args...); err != nil {
			t.Fatal(err)
		}
		var man experiment.EvalManifest
		mb, _ := os.ReadFile(filepath.Join(out, experiment.MarkerFile))
		if err := json.Unmarshal(mb, &man); err != nil {
			t.Fatal(err)
		}
		return []string{man.Schedulers[0].TimeUnit, man.Schedulers[1].TimeUnit}
	}
	if got := units(); got[0] != "seconds" || got[1] != "hours" {
		t.Fatalf("time units %v, want the run's seconds and the default hours", got)
	}
	if got := units("--time-unit", "hours"); got[0] != "hours" || got[1] != "hours" {
		t.Fatalf("with --time-unit hours: %v", got)
	}
	// A broken config.yaml beside best.json is an error, not a guess.
	os.WriteFile(filepath.Join(run, "config.yaml"), []byte("gp: {population: -1, nonsense: 1}\n"), 0o644)
	if _, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", filepath.Join(t.TempDir(), "e"), "--schedulers", "gp="+run); err == nil {
		t.Fatal("a broken config.yaml was accepted")
	}
}

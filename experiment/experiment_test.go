package experiment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// PointDirName uses only characters every tool accepts in a path element
// and an import path, and distinct points get distinct names.
func TestPointDirNameSafeAndDistinct(t *testing.T) {
	safe := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	points := [][]string{
		nil,
		{"objective.omega=0"},
		{"objective.omega=0.5", "seed=1"},
		{"objective.omega=0", "seed=1"},
		{"objective.weights=1,0,1"},
		{"objective.weights=1 0 1"},
		{"data.train_dir=/a/b"},
		{"data.train_dir=/a_b"},
		{"data.train_dir=a/b"},
		{"gp.time_unit=hours", "objective.omega=-1"},
		{"x=ä"}, {"x=ö"},
	}
	seen := map[string][]string{}
	for _, p := range points {
		name := PointDirName(p)
		if !safe.MatchString(name) {
			t.Errorf("%v → %q: unsafe directory name", p, name)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("%v and %v share the directory %q", p, other, name)
		}
		seen[name] = p
	}
	if got := PointDirName([]string{"objective.omega=0.5", "seed=1"}); got != "objective.omega-0.5_seed-1" {
		t.Errorf("PointDirName = %q", got)
	}
}

// A sweep directory made by an earlier version (point directories named
// key=value) is renamed to the tool-safe names on resume.
func TestPointDirRenamesLegacy(t *testing.T) {
	dir := t.TempDir()
	o := []string{"objective.omega=0", "seed=2"}
	old := filepath.Join(dir, "points", "objective.omega=0,seed=2")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(old, "best.json"), []byte("{}"), 0o644)
	p, err := pointDir(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "objective.omega-0_seed-2" {
		t.Fatalf("point dir %s", p)
	}
	if _, err := os.Stat(filepath.Join(p, "best.json")); err != nil {
		t.Fatal("legacy directory was not renamed")
	}
}

// An earlier evogp result is replaced only with force; a foreign directory
// never.
func TestCheckOutDir(t *testing.T) {
	root := t.TempDir()
	if err := CheckOutDir(filepath.Join(root, "new"), false); err != nil {
		t.Fatalf("new dir: %v", err)
	}
	ours := filepath.Join(root, "ours")
	os.MkdirAll(ours, 0o755)
	os.WriteFile(filepath.Join(ours, MarkerFile), []byte("{}"), 0o644)
	if err := CheckOutDir(ours, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("evogp dir without force: %v", err)
	}
	if err := CheckOutDir(ours, true); err != nil {
		t.Fatalf("evogp dir with force: %v", err)
	}
	foreign := filepath.Join(root, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes"), []byte("x"), 0o644)
	if err := CheckOutDir(foreign, true); err == nil || !strings.Contains(err.Error(), "not written by evogp") {
		t.Fatalf("foreign dir with force: %v", err)
	}
}

// A priority formula replaces only a ranking named formula.
func TestNewPolicyFormulaNeedsFormulaRanking(t *testing.T) {
	for _, spec := range []string{"tiresias", "spark", "mct+srsf+bestfit", "user+fifo+roundrobin"} {
		if _, err := NewPolicy(spec, "0-g*d", false); err == nil || !strings.Contains(err.Error(), "own ranking") {
			t.Errorf("%s with a formula: err = %v", spec, err)
		}
	}
	p, err := NewPolicy("User+Formula+RoundRobin", "g*d", true)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "user+formula+roundrobin[g * d]" || p.TimeUnit != "seconds" {
		t.Errorf("policy %+v", p)
	}
	if _, err := NewPolicy("mct+formula+bestfit", "", false); err == nil {
		t.Error("formula ranking without a formula was accepted")
	}
}

func TestProvenanceAndLatest(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := NewProvenance([]string{"evogp", "learn", "seed=2"}, start)
	if p.GoVersion == "" || p.Host == "" || p.Version == "" || !p.Start.Equal(start) || len(p.Command) != 3 {
		t.Fatalf("provenance %+v", p)
	}
	dir := filepath.Join(t.TempDir(), "runs", "a")
	os.MkdirAll(dir, 0o755)
	for range 2 {
		if err := AppendProvenance(dir, p); err != nil {
			t.Fatal(err)
		}
	}
	var all []Provenance
	b, _ := os.ReadFile(filepath.Join(dir, ProvenanceFile))
	if err := json.Unmarshal(b, &all); err != nil || len(all) != 2 || all[1].Command[2] != "seed=2" {
		t.Fatalf("provenance.json: %v %+v", err, all)
	}

	if err := LinkLatest(dir); err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(filepath.Dir(dir), "b")
	os.MkdirAll(second, 0o755)
	if err := LinkLatest(second); err != nil {
		t.Fatal(err)
	}
	target, err := os.Readlink(filepath.Join(filepath.Dir(dir), LatestLink))
	if err != nil || target != "b" {
		t.Fatalf("latest → %q, %v", target, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 3 {
		t.Fatalf("runs/ holds %d entries, want a, b, latest", len(entries))
	}
}

func TestFreshDir(t *testing.T) {
	base := filepath.Join(t.TempDir(), "run")
	if FreshDir(base) != base {
		t.Fatal("a free name was changed")
	}
	os.Mkdir(base, 0o755)
	os.Mkdir(base+"-2", 0o755)
	if got := FreshDir(base); got != base+"-3" {
		t.Fatalf("FreshDir = %s", got)
	}
}

// FuzzPointDirName: any overrides give a tool-safe name, and changing a
// value changes the name.
func FuzzPointDirName(f *testing.F) {
	f.Add("objective.omega", "0.5", "1")
	f.Add("data.train_dir", "/a/b", "/a_b")
	f.Add("x", "ä", "ö")
	safe := regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	f.Fuzz(func(t *testing.T, key, v1, v2 string) {
		a := PointDirName([]string{key + "=" + v1})
		if !safe.MatchString(a) {
			t.Fatalf("%q=%q → unsafe %q", key, v1, a)
		}
		if v1 != v2 && !strings.Contains(v1, "=") && !strings.Contains(v2, "=") {
			if b := PointDirName([]string{key + "=" + v2}); a == b {
				t.Fatalf("%q and %q share the directory %q", v1, v2, a)
			}
		}
	})
}

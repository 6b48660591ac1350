package configs

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/datasets"
)

func TestEmbeddedConfigsLoad(t *testing.T) {
	for _, n := range Names() {
		if _, err := Load(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	c, err := Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	if c.GP.Population != 512 || c.GP.Generations != 100 || c.GP.Subset != 3 || c.Data.Train != 50 || c.GP.MaxDepth != 7 {
		t.Errorf("paper config does not hold the paper's defaults: %+v", c.GP)
	}
}

func TestUnknownKeyRejected(t *testing.T) {
	_, err := Parse("x.yaml", []byte("gp:\n  populaton: 3\n"))
	if err == nil || !strings.Contains(err.Error(), "populaton") {
		t.Fatalf("want an error naming the unknown key, got %v", err)
	}
}

func TestOverride(t *testing.T) {
	c, _ := Load("quick")
	c2, err := c.Override("gp.population=256", "objective.weights=1,0,1", "seed=7", "sim.trigger=arrival+completion")
	if err != nil {
		t.Fatal(err)
	}
	if c2.GP.Population != 256 || c2.Objective.Weights != [3]float64{1, 0, 1} || c2.Seed != 7 || c2.Sim.Trigger != "arrival+completion" {
		t.Errorf("override not applied: %+v", c2)
	}
	if c.GP.Population == 256 {
		t.Error("override changed its receiver")
	}
	for _, bad := range []string{"gp.nope=1", "gp=3", "gp.population=1", "noequals", "objective.omega=2"} {
		if _, err := c.Override(bad); err == nil {
			t.Errorf("%s: want error", bad)
		}
	}
}

func TestGeneratorSettings(t *testing.T) {
	c, err := Load("load")
	if err != nil {
		t.Fatal(err)
	}
	s := c.Generator.Settings()
	if s.Arrivals != datasets.ArrivalsUniform || s.Interval != 120 || s.GPUsPerNode != c.Generator.GPUsPerNode {
		t.Fatalf("settings not copied: %+v", s)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := Default().Generator.Settings(); !reflect.DeepEqual(got, datasets.PaperSettings()) {
		t.Fatalf("the default generator %+v differs from datasets.PaperSettings %+v", got, datasets.PaperSettings())
	}
}

// Overrides are parsed against the key's type: no silent truncation, and
// errors name the key, the value and the expected type.
func TestOverrideTyped(t *testing.T) {
	c, _ := Load("quick")
	got, err := c.Override("pressure.intervals=60", "generator.nodes=[5,9]", "gp.constants=true", "gp.time_unit=seconds", "objective.omega=0.25")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pressure.Intervals) != 1 || got.Pressure.Intervals[0] != 60 || got.Generator.Nodes != [2]int{5, 9} ||
		!got.GP.Constants || got.GP.TimeUnit != "seconds" || got.Objective.Omega != 0.25 {
		t.Fatalf("overrides not applied: %+v", got)
	}
	for _, c2 := range []struct{ in, want string }{
		{"seed=1.5", `seed wants an integer ≥ 0, got "1.5"`},
		{"gp.population=12.7", `gp.population wants an integer, got "12.7"`},
		{"gp.population=many", `gp.population wants an integer, got "many"`},
		{"objective.omega=0,1", `objective.omega wants one number, got the list "0,1"`},
		{"objective.weights=1,0", "objective.weights wants exactly 3 comma-separated numbers, got 2"},
		{"objective.weights=1,x,0", `objective.weights[1] wants a number, got "x"`},
		{"gp.constants=maybe", "gp.constants wants a boolean"},
		{"gp.populaton=10", `unknown key "gp.populaton"; did you mean "gp.population"?`},
		{"population=10", `did you mean "gp.population"?`},
		{"gp=3", `key "gp" is a section`},
		{"seed.x=1", `key "seed" is a value, not a section`},
		{"--out", "looks like a flag"},
		{"gp.population=1", "gp.population = 1: must be ≥ 2"},
	} {
		_, err := c.Override(c2.in)
		if err == nil || !strings.Contains(err.Error(), c2.want) {
			t.Errorf("%s: err = %v, want %q", c2.in, err, c2.want)
		}
	}
}

// Every key of the schema can be set back to its own value.
func TestOverrideEveryKeyRoundTrips(t *testing.T) {
	c, _ := Load("paper")
	raw, _ := c.Marshal()
	for _, k := range Keys() {
		if k == "name" {
			continue
		}
		if _, err := c.Override(k + "=" + valueOf(t, raw, k)); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// valueOf reads key's value from the YAML rendering, as a user would type it.
func valueOf(t *testing.T, raw []byte, key string) string {
	t.Helper()
	var tree map[string]any
	if err := yaml.Unmarshal(raw, &tree); err != nil {
		t.Fatal(err)
	}
	var cur any = tree
	for _, p := range strings.Split(key, ".") {
		cur = cur.(map[string]any)[p]
	}
	if l, ok := cur.([]any); ok {
		s := make([]string, len(l))
		for i, x := range l {
			s[i] = fmt.Sprint(x)
		}
		return strings.Join(s, ",")
	}
	return fmt.Sprint(cur)
}

// FuzzOverride: any assignment either fails with an error or yields a
// config that validates; nothing panics.
func FuzzOverride(f *testing.F) {
	for _, s := range []string{"seed=1.5", "gp.population=16", "objective.weights=[1,0,1]", "pressure.intervals=60,120",
		"gp.constants=true", "gp=1", "x.y.z=", "=1", "objective.omega=0,1", "generator.nodes=3"} {
		f.Add(s)
	}
	base, err := Load("smoke")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, a string) {
		c, err := base.Override(a)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("%q gave an invalid config: %v", a, err)
		}
	})
}

// Lists of names stay strings ("f" and "n" are not booleans) and "[]"
// empties a list.
func TestOverrideNameLists(t *testing.T) {
	c, err := Default().Override("gp.terminals=d,f,n,e", "gp.seed_formulas=g * d,0 - q")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.GP.Terminals, " ") != "d f n e" || len(c.GP.SeedFormulas) != 2 || c.GP.SeedFormulas[1] != "0 - q" {
		t.Errorf("got terminals %q, seeds %q", c.GP.Terminals, c.GP.SeedFormulas)
	}
	if c, err = c.Override("gp.seed_formulas=[]"); err != nil || len(c.GP.SeedFormulas) != 0 {
		t.Errorf("[] gave %q, %v", c.GP.SeedFormulas, err)
	}
}

func TestHeteroOverrides(t *testing.T) {
	c, err := Load("hetero-heavy")
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Override("generator.jobs=400", "generator.deadlines.fraction=0.5", "generator.deadlines.slack=1,3")
	if err != nil {
		t.Fatal(err)
	}
	if g := got.Generator; g.Jobs != 400 || g.Deadlines.Fraction != 0.5 || g.Deadlines.Slack != [2]float64{1, 3} || len(g.Types) != 3 || g.Types[2].Nodes != 20 {
		t.Fatalf("%+v", got.Generator)
	}
	if _, err := c.Override("generator.types=a"); err == nil || !strings.Contains(err.Error(), "list of sections") {
		t.Fatalf("generator.types override: %v", err)
	}
	if _, err := c.Override("generator.deadlines.fraction=2"); err == nil || !strings.Contains(err.Error(), "generator.deadlines.fraction") {
		t.Fatalf("fraction 2: %v", err)
	}
}

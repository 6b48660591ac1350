package configs

import (
	"bytes"
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
		{"gp.pick=best", `gp.pick = "best": must be mean, pooled, mean+worst`},
		{"gp.fitness=sum", `gp.fitness = "sum": must be mean, pooled`},
	} {
		_, err := c.Override(c2.in)
		if err == nil || !strings.Contains(err.Error(), c2.want) {
			t.Errorf("%s: err = %v, want %q", c2.in, err, c2.want)
		}
	}
}

// Every key of the schema can be set back to its own value.
func TestOverrideEveryKeyRoundTrips(t *testing.T) {
	for _, name := range []string{"paper", "paper-route"} {
		t.Run(name, func(t *testing.T) { overrideRoundTrips(t, name) })
	}
}

// omittedUnlessSet are the keys a config marshals only when they are set
// (so that older configs keep their ConfigHash); paper-route sets them.
var omittedUnlessSet = map[string]bool{"gp.seed": true, "data.seed": true, "gp.learn": true, "gp.routing_terminals": true, "gp.scope": true, "gp.seed_routing": true, "gp.tree_swap": true, "gp.surrogate": true, "gp.surrogate_pool": true, "gp.surrogate_k": true, "gp.surrogate_repeats": true, "gp.niche": true}

func overrideRoundTrips(t *testing.T, name string) {
	c, err := Load(name)
	if err != nil {
		t.Fatal(err)
	}
	c.Rule = Rule{Routing: "W - o", Scope: "all"} // rendered only when set
	raw, _ := c.Marshal()
	for _, k := range Keys() {
		if k == "name" || omittedUnlessSet[k] && !bytes.Contains(raw, []byte("\n  "+strings.TrimPrefix(k, "gp.")+":")) {
			continue
		}
		v := valueOf(t, raw, k)
		if v == "<nil>" && (k == "gp.seed" || k == "data.seed") {
			v = "0" // not written while unset (they follow seed)
		}
		if _, err := c.Override(k + "=" + v); err != nil {
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
	if cur == nil { // an omitempty key at its zero value (e.g. sim.arrival_ties)
		return ""
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

// The evo section holds SPEC §11's defaults; the paper config initialises
// at random; its keys are overridable and checked.
func TestEVOSection(t *testing.T) {
	d := Default().EVO
	if d != (EVO{Population: 100, Generations: 200, Mutation: 0.1, Stall: 0, Budget: 0, Init: "seeded", Workers: 1}) {
		t.Errorf("default evo section %+v is not SPEC §11's", d)
	}
	q, _ := Load("quick")
	if q.EVO.Init != "seeded" {
		t.Errorf("quick: evo.init = %q, want the default seeded", q.EVO.Init)
	}
	p, _ := Load("paper")
	if p.EVO.Init != "random" || p.EVO.Population != 100 || p.EVO.Generations != 200 {
		t.Errorf("paper: evo = %+v, want init random with the paper's population and generations", p.EVO)
	}
	got, err := q.Override("evo.population=20", "evo.generations=5", "evo.mutation=0.3", "evo.stall=2", "evo.budget=50", "evo.init=random", "evo.workers=4")
	if err != nil {
		t.Fatal(err)
	}
	if got.EVO != (EVO{Population: 20, Generations: 5, Mutation: 0.3, Stall: 2, Budget: 50, Init: "random", Workers: 4}) {
		t.Errorf("overrides not applied: %+v", got.EVO)
	}
	for _, c := range []struct{ in, want string }{
		{"evo.population=1", "evo.population = 1: must be ≥ 2"},
		{"evo.generations=-1", "evo.generations = -1: must be ≥ 0"},
		{"evo.mutation=1.5", "evo.mutation = 1.5: must be in [0, 1]"},
		{"evo.stall=-3", "evo.stall = -3: must be ≥ 0"},
		{"evo.budget=50", "evo.budget = 50: must be 0 (off) or at least the population (100)"},
		{"evo.init=greedy", `evo.init = "greedy": want seeded or random`},
		{"evo.workers=-1", "evo.workers = -1: must be ≥ 0"},
		{"evo.popsize=10", `unknown key "evo.popsize"`},
	} {
		if _, err := q.Override(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := Parse("x.yaml", []byte("evo:\n  populaton: 3\n")); err == nil || !strings.Contains(err.Error(), "populaton") {
		t.Errorf("unknown evo key in YAML: err = %v", err)
	}
}

// issue 32 item 8: an objective whose weights are all zero scores every
// schedule 1.0; it is refused, from a file and from an override alike.
func TestAllZeroWeightsRefused(t *testing.T) {
	c, err := Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Override("objective.weights=0,0,0"); err == nil || !strings.Contains(err.Error(), "objective.weights") {
		t.Errorf("weights 0,0,0: got %v, want an error naming objective.weights", err)
	}
	if _, err := Parse("x.yaml", []byte("objective:\n  weights: [0, -0, 0]\n")); err == nil {
		t.Error("weights [0, -0, 0] accepted")
	}
	if _, err := c.Override("objective.weights=0,0,1"); err != nil {
		t.Errorf("weights 0,0,1: %v", err)
	}
	// Eq. 16 and the deadline objective use omega, not the weights.
	if _, err := c.Override("objective.kind=single", "objective.weights=0,0,0"); err != nil {
		t.Errorf("single objective with zero weights: %v", err)
	}
}

// issue 32 item 14: an empty (or comment-only) config file is refused
// rather than run as the full default config; {} still means "defaults".
func TestEmptyConfigRefused(t *testing.T) {
	for _, src := range []string{"", "\n\n", "# nothing here\n", "---\n"} {
		_, err := Parse("empty.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "empty.yaml") || !strings.Contains(err.Error(), "no settings") {
			t.Errorf("%q: got %v, want an error saying the file holds no settings", src, err)
		}
	}
	c, err := Parse("all-defaults.yaml", []byte("{}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Error("{} did not give the default config")
	}
}

// issue 32 item 12: a YAML syntax error names the line that holds it.
func TestYAMLErrorNamesTheRealLine(t *testing.T) {
	_, err := Parse("x.yaml", []byte("name: x\nseed: 3\ngp:\n  population: 64\nobjective: {kind: multi\n"))
	if err == nil || !strings.Contains(err.Error(), "x.yaml") || !strings.Contains(err.Error(), "line 5:") {
		t.Errorf("got %v, want an error at x.yaml line 5", err)
	}
}

// gp.learn and the routing keys: the two learners, and one clear error for
// each inconsistent setting.
func TestLearnKeys(t *testing.T) {
	base, err := Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	explicit, err := base.Override("gp.learn=[ranking]")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := base.Marshal()
	b, _ := explicit.Marshal()
	if !bytes.Equal(a, b) || explicit.GP.LearnsRouting() {
		t.Errorf("gp.learn: [ranking] must be the default and marshal as before:\n%s\nvs\n%s", a, b)
	}
	two, err := base.Override("gp.learn=routing,ranking", "gp.routing_terminals=d,W", "gp.scope=all")
	if err != nil {
		t.Fatal(err)
	}
	if !two.GP.LearnsRouting() || two.GP.RoutingScope() != "all" {
		t.Errorf("two trees: %+v", two.GP)
	}
	for _, c := range []struct {
		set  []string
		want string
	}{
		{[]string{"gp.learn=routing"}, "must be [ranking] (the paper's learner) or [routing, ranking]"},
		{[]string{"gp.learn=ranking,routing"}, "must be [ranking]"},
		{[]string{"gp.scope=all"}, "gp.scope is set but gp.learn = [ranking] learns no routing tree"},
		{[]string{"gp.seed_routing=m"}, "gp.seed_routing is set but"},
		{[]string{"gp.learn=routing,ranking"}, "gp.routing_terminals: must list at least one"},
		{[]string{"gp.learn=routing,ranking", "gp.routing_terminals=d", "gp.scope=some"}, `gp.scope = "some": must be arrivals or all`},
		{[]string{"gp.learn=routing,ranking", "gp.routing_terminals=d", "gp.tree_swap=2"}, "gp.tree_swap = 2: must be in [0, 1]"},
	} {
		if _, err := base.Override(c.set...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.set, err, c.want)
		}
	}
}

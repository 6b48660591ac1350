package configs

import (
	"strings"
	"testing"
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

package configs

import (
	"reflect"
	"strings"
	"testing"

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

package experiment

import (
	"reflect"
	"testing"

	"github.com/evogp/evogp/configs"
)

// data.seed fixes the test set while seed (or gp.seed) varies the learner:
// seed=1,2 with data.seed=1 evaluates both on one test set, and EVO's
// operations follow the learner's seed.
func TestDataSeedFixesTheTestSet(t *testing.T) {
	load := func(overrides ...string) configs.Config {
		cfg, err := configs.Load("smoke")
		if err != nil {
			t.Fatal(err)
		}
		if cfg, err = cfg.Override(append([]string{"data.test=2"}, overrides...)...); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	test := func(cfg configs.Config) any {
		insts, err := TestInstances(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return insts
	}
	a, b := load("seed=1", "data.seed=1"), load("seed=2", "data.seed=1")
	if !reflect.DeepEqual(test(a), test(b)) {
		t.Error("data.seed=1: the test set changed with seed")
	}
	if !reflect.DeepEqual(test(load("seed=1")), test(a)) {
		t.Error("data.seed=1 with seed=1 differs from seed=1 alone")
	}
	if reflect.DeepEqual(test(load("seed=1")), test(load("seed=2"))) {
		t.Error("seed alone did not change the test set")
	}
	if EVOParams(a).Seed != 1 || EVOParams(b).Seed != 2 || EVOParams(load("gp.seed=7")).Seed != 7 {
		t.Errorf("EVO seeds %d %d", EVOParams(a).Seed, EVOParams(b).Seed)
	}
}

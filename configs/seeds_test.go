package configs

import (
	"bytes"
	"strings"
	"testing"
)

// seed sets both seeds; gp.seed and data.seed override it one at a time.
func TestGPAndDataSeeds(t *testing.T) {
	for _, c := range []struct {
		overrides []string
		gp, data  uint64
	}{
		{nil, 1, 1},
		{[]string{"seed=5"}, 5, 5},
		{[]string{"seed=5", "data.seed=1"}, 5, 1},
		{[]string{"gp.seed=9"}, 9, 1},
		{[]string{"gp.seed=9", "data.seed=3", "seed=4"}, 9, 3},
	} {
		cfg, err := Default().Override(c.overrides...)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.GPSeed() != c.gp || cfg.DataSeed() != c.data {
			t.Errorf("%v: gp seed %d, data seed %d; want %d, %d", c.overrides, cfg.GPSeed(), cfg.DataSeed(), c.gp, c.data)
		}
	}
	// They round-trip through YAML.
	cfg, _ := Default().Override("gp.seed=9", "data.seed=3")
	b, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("round trip", b)
	if err != nil || back.GPSeed() != 9 || back.DataSeed() != 3 {
		t.Fatalf("round trip: %v gp %d data %d\n%s", err, back.GPSeed(), back.DataSeed(), b)
	}
}

// A config that sets neither gp.seed nor data.seed marshals as before the
// keys existed (one seed line, at the top), so its learn.ConfigHash, and
// with it the resumability of its old checkpoints, is unchanged; each key,
// once set, adds its one line.
func TestUnsetSeedsKeepTheMarshalledConfig(t *testing.T) {
	for _, name := range Names() {
		cfg, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := cfg.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("seed:")); n != 1 || !bytes.Contains(b, []byte("\nseed: ")) {
			t.Errorf("%s: %d seed lines in\n%s", name, n, b)
		}
		set, _ := cfg.Override("gp.seed=2", "data.seed=3")
		b2, _ := set.Marshal()
		if !strings.Contains(string(b2), "\n  seed: 2\n") || !strings.Contains(string(b2), "\n  seed: 3\n") || bytes.Count(b2, []byte("seed:")) != 3 {
			t.Errorf("%s with both set:\n%s", name, b2)
		}
	}
}

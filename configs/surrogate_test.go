package configs

import (
	"bytes"
	"strings"
	"testing"
)

// The surrogate keys: off by default and not written out (paper and quick
// keep their hashes); knn fills its defaults and writes all three; every
// bad value is one clear error, from an override and from a file.
func TestSurrogateKeys(t *testing.T) {
	for _, name := range []string{"paper", "quick"} {
		c, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := c.Marshal()
		if c.GP.SurrogateOn() || bytes.Contains(b, []byte("surrogate")) {
			t.Errorf("%s: the surrogate must be off and unwritten:\n%s", name, b)
		}
		none, err := c.Override("gp.surrogate=none")
		if err != nil {
			t.Fatal(err)
		}
		if nb, _ := none.Marshal(); !bytes.Equal(b, nb) {
			t.Errorf("%s: gp.surrogate=none must marshal as the default", name)
		}
	}
	base, err := Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	on, err := base.Override("gp.surrogate=knn")
	if err != nil {
		t.Fatal(err)
	}
	if !on.GP.SurrogateOn() || on.GP.SurrogatePool != DefaultSurrogatePool || on.GP.SurrogateK != DefaultSurrogateK {
		t.Errorf("knn defaults: %+v", on.GP)
	}
	raw, _ := on.Marshal()
	back, err := Parse("back.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	if back.GP.Surrogate != "knn" || back.GP.SurrogatePool != 2 || back.GP.SurrogateK != 3 {
		t.Errorf("round trip: %+v", back.GP)
	}
	if bytes.Contains(raw, []byte("surrogate_repeats")) {
		t.Errorf("the default repeats rule (last) must not be written:\n%s", raw)
	}
	if last, err := on.Override("gp.surrogate_repeats=last"); err != nil || last.GP.SurrogateRepeats != "" {
		t.Errorf("gp.surrogate_repeats=last must normalise to the default: %+v, %v", last.GP, err)
	}
	free, err := on.Override("gp.surrogate_repeats=free")
	if err != nil || !free.GP.SurrogateRepeatsFree() {
		t.Fatalf("free: %+v, %v", free.GP, err)
	}
	rawFree, _ := free.Marshal()
	if back, err := Parse("back.yaml", rawFree); err != nil || !back.GP.SurrogateRepeatsFree() {
		t.Errorf("free round trip: %+v, %v", back.GP, err)
	}
	if !bytes.Contains(rawFree, []byte("\n  surrogate_repeats: free\n")) {
		t.Errorf("free must be written:\n%s", rawFree)
	}
	off, err := free.Override("gp.surrogate=none")
	if err != nil || off.GP.SurrogatePool != 0 || off.GP.SurrogateK != 0 || off.GP.SurrogateRepeats != "" {
		t.Errorf("turning knn off must drop its pool, k and repeats rule: %+v, %v", off.GP, err)
	}
	for _, c := range []struct {
		set  []string
		want string
	}{
		{[]string{"gp.surrogate=gp"}, `gp.surrogate = "gp": must be none or knn`},
		{[]string{"gp.surrogate=knn", "gp.surrogate_pool=0"}, "gp.surrogate_pool = 0: must be ≥ 1"},
		{[]string{"gp.surrogate=knn", "gp.surrogate_pool=-2"}, "gp.surrogate_pool = -2: must be ≥ 1"},
		{[]string{"gp.surrogate=knn", "gp.surrogate_k=0"}, "gp.surrogate_k = 0: must be ≥ 1"},
		{[]string{"gp.surrogate_k=4"}, "gp.surrogate_k is set but gp.surrogate is off"},
		{[]string{"gp.surrogate_pool=3"}, "gp.surrogate_pool is set but gp.surrogate is off"},
		{[]string{"gp.surrogate_repeats=free"}, "gp.surrogate_repeats is set but gp.surrogate is off"},
		{[]string{"gp.surrogate=knn", "gp.surrogate_repeats=first"}, `gp.surrogate_repeats = "first": must be last`},
	} {
		if _, err := base.Override(c.set...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.set, err, c.want)
		}
	}
	for _, c := range []struct{ yaml, want string }{
		{"gp:\n  surrogate: knn\n  surrogate_pool: 0\n", "line 3: gp.surrogate_pool = 0: must be ≥ 1"},
		{"gp:\n  surrogate: knn\n  surrogate_k: -1\n", "line 3: gp.surrogate_k = -1: must be ≥ 1"},
		{"gp:\n  surrogate: kn\n", `gp.surrogate = "kn": must be none or knn`},
		{"gp:\n  surrogate_repeats: free\n", "gp.surrogate_repeats is set but gp.surrogate is off"},
	} {
		if _, err := Parse("s.yaml", []byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "s.yaml") {
			t.Errorf("%q: err = %v, want %q", c.yaml, err, c.want)
		}
	}
	if c, err := Parse("s.yaml", []byte("gp:\n  surrogate: knn\n  surrogate_pool: 4\n")); err != nil || c.GP.SurrogatePool != 4 || c.GP.SurrogateK != 3 {
		t.Errorf("file: %+v, %v", c.GP, err)
	}
}

package configs

import (
	"strings"
	"testing"
)

// Issue 32 item 2: every size-like key has an upper bound derived from
// memory. The paper config fits in 1 GiB; a huge population, generation
// count, EVO population or instance count is refused, naming the key.
func TestMemoryBounds(t *testing.T) {
	const avail = 8 << 30
	paper, err := Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	if err := paper.CheckLearnMemory(1<<30, "test"); err != nil {
		t.Errorf("the paper config does not fit in 1 GiB: %v", err)
	}
	for _, c := range []struct{ override, key string }{
		{"gp.population=1000000000000", "gp.population"}, // alone, or in the cache's product
		{"gp.generations=1000000000", "gp.generations × gp.population × gp.subset"},
		{"gp.subset=100000000", "gp.generations × gp.population × gp.subset"},
		{"evo.population=1000000000000", "evo.population"},
		{"data.train=1000000000", "data.train + data.validation + data.test"},
		{"data.test=1000000000", "data.train + data.validation + data.test"},
	} {
		cfg, err := paper.Override(c.override)
		if err != nil {
			t.Fatal(err)
		}
		err = cfg.CheckLearnMemory(avail, "test")
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), " alone needs") || !strings.Contains(err.Error(), "8.0 GiB available (test)") {
			t.Errorf("%s: %v", c.override, err)
		}
	}
	smoke, err := Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	if err := smoke.Generator.CheckInstancesIn(150000, "--instances", avail, "test"); err != nil {
		t.Errorf("150000 smoke instances: %v", err)
	}
	if err := smoke.Generator.CheckInstancesIn(100000000, "--instances", avail, "test"); err == nil || !strings.Contains(err.Error(), "--instances = 100000000 alone needs") {
		t.Errorf("100000000 smoke instances: %v", err)
	}
	if a, src := AvailableMemory(); !(a > 0) || src == "" {
		t.Errorf("AvailableMemory = %v (%q)", a, src)
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[float64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 8 << 30: "8.0 GiB", 1e20: "86.7 EiB", 1e30: "8.67e+11 EiB"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%v) = %q, want %q", b, got, want)
		}
	}
}

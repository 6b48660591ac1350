package estimate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

func testInstance(name string, n int) *simcore.Instance {
	in := &simcore.Instance{Name: name, Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 4, GPUType: "V100"}}}
	for i := range n {
		in.Jobs = append(in.Jobs, simcore.Job{ID: int64(i), Arrival: int64(i), Duration: int64(100 + 37*i), Workers: 1, GPUs: 1, Priority: 1})
	}
	return in
}

func TestParseErrorModel(t *testing.T) {
	for spec, want := range map[string]ErrorModel{"lognormal:0.5": Lognormal{0.5}, "uniform:0.2": Uniform{0.2}, "lognormal:0": Lognormal{0}} {
		got, err := ParseErrorModel(spec)
		if err != nil || got != want || got.String() != spec {
			t.Errorf("%s: %v %v", spec, got, err)
		}
	}
	for _, bad := range []string{"lognormal", "lognormal:-1", "lognormal:NaN", "uniform:1", "uniform:-0.1", "gamma:1", "uniform:x"} {
		if _, err := ParseErrorModel(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// d̂ = max(1, round(d·f)): hand-checked against the same draws.
func TestFillEstimatesFormula(t *testing.T) {
	in := testInstance("inst-1", 50)
	if _, err := FillEstimates(in, Uniform{0.3}, 9, false); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, fnvString("inst-1")))
	for _, j := range in.Jobs {
		f := 1 - 0.3 + 0.6*rng.Float64()
		if want := max(1, int64(math.Round(float64(j.Duration)*f))); j.Estimate != want {
			t.Fatalf("job %d: estimate %d, want %d", j.ID, j.Estimate, want)
		}
		if d := float64(j.Estimate) / float64(j.Duration); d < 0.69 || d > 1.31 {
			t.Fatalf("job %d: ratio %v outside the uniform spread", j.ID, d)
		}
	}
	// σ = 0 is the exact duration; a tiny factor floors at 1 s.
	if _, err := FillEstimates(in, Lognormal{0}, 9, false); err != nil {
		t.Fatal(err)
	}
	for _, j := range in.Jobs {
		if j.Estimate != j.Duration {
			t.Fatalf("σ = 0: job %d estimate %d, duration %d", j.ID, j.Estimate, j.Duration)
		}
	}
	if _, err := FillEstimates(in, Empirical{Name: "x", Errors: []float64{-0.9999}}, 1, false); err != nil {
		t.Fatal(err)
	}
	for _, j := range in.Jobs {
		if j.Estimate != 1 {
			t.Fatalf("floor: job %d estimate %d", j.ID, j.Estimate)
		}
	}
}

func fnvString(s string) uint64 {
	// FNV-1a 64, written out so the test does not share code with the
	// implementation.
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// Same seed and instance name → same estimates, whatever else is filled;
// another seed → others. Lognormal factors have median ≈ 1.
func TestFillEstimatesReproducible(t *testing.T) {
	a, b, c := testInstance("x", 2000), testInstance("x", 2000), testInstance("x", 2000)
	FillEstimates(testInstance("other", 10), Lognormal{0.5}, 3, false)
	if _, err := FillEstimates(a, Lognormal{0.5}, 3, false); err != nil {
		t.Fatal(err)
	}
	FillEstimates(b, Lognormal{0.5}, 3, false)
	FillEstimates(c, Lognormal{0.5}, 4, false)
	same, below := 0, 0
	for i := range a.Jobs {
		if a.Jobs[i].Estimate != b.Jobs[i].Estimate {
			t.Fatalf("job %d: %d vs %d", i, a.Jobs[i].Estimate, b.Jobs[i].Estimate)
		}
		if a.Jobs[i].Estimate == c.Jobs[i].Estimate {
			same++
		}
		if a.Jobs[i].Estimate < a.Jobs[i].Duration {
			below++
		}
	}
	if same > 200 {
		t.Errorf("%d of 2000 estimates equal under another seed", same)
	}
	if below < 900 || below > 1100 {
		t.Errorf("%d of 2000 below the truth, want ≈ 1000 (median factor 1)", below)
	}
}

func TestFillEstimatesEmpiricalAndReuse(t *testing.T) {
	emp := Empirical{Name: "adaptive:dir", Errors: []float64{-0.5, 0.25, 1}}
	in := testInstance("e", 300)
	for i := range in.Jobs {
		in.Jobs[i].Name = []string{"resnet", "bert", ""}[i%3]
	}
	st, err := FillEstimates(in, emp, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	// 200 named jobs of two names (all 1 GPU, one GPU type): 2 misses.
	if st.Hits != 198 || st.Misses != 2 {
		t.Errorf("stats %+v", st)
	}
	factor := map[string]float64{}
	for _, j := range in.Jobs {
		f := float64(j.Estimate) / float64(j.Duration)
		ok := false
		for _, e := range emp.Errors {
			if math.Abs(f-(1+e)) < 0.01 {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("job %d: factor %v not from the empirical errors", j.ID, f)
		}
		if j.Name == "" {
			continue
		}
		if prev, seen := factor[j.Name]; seen && math.Abs(prev-f) > 0.01 {
			t.Fatalf("recurring job %s: factor %v, first %v", j.Name, f, prev)
		}
		factor[j.Name] = f
	}
	if _, err := FillEstimates(in, Empirical{Name: "none"}, 1, false); err == nil || !strings.Contains(err.Error(), "has no errors") {
		t.Errorf("empty empirical: %v", err)
	}
	rows := []Row{{Result: Result{Method: "head"}, Error: 0.5}, {Result: Result{Method: "adaptive"}, Error: -0.1}}
	e, err := EmpiricalFrom(rows, "adaptive", "adaptive:d")
	if err != nil || len(e.Errors) != 1 || e.Errors[0] != -0.1 || e.String() != "empirical:adaptive:d" {
		t.Errorf("%+v %v", e, err)
	}
	if _, err := EmpiricalFrom(rows, "random", "r"); err == nil {
		t.Error("no rows accepted")
	}
	ClearEstimates(in)
	if HasEstimates(in) {
		t.Error("estimates left after Clear")
	}
}

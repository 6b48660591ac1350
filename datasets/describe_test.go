package datasets

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

func TestDescribe(t *testing.T) {
	// 2×8 + 1×4 = 20 GPUs. Jobs: 8 GPUs × 1 h, 2 × 2 h, 1 × 0.5 h and
	// 8 × 0.25 h = 8 + 4 + 0.5 + 2 = 14.5 GPU-hours, arriving over 2 h, so
	// ρ = 14.5 / (20 × 2). Per cluster: cluster 0 has jobs 0, 1, 3 —
	// 50400 GPU-s over 3400 s on 16 GPUs; cluster 1 one job, span 0, so its
	// ρ_1 is undefined and the mean is ρ_0.
	in := simcore.Instance{
		Name:     "x",
		Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 8}, {Nodes: 1, GPUsPerNode: 4}},
		Jobs: []simcore.Job{
			{ID: 0, Arrival: 600, Duration: 3600, Workers: 1, GPUs: 8, Priority: 1},
			{ID: 1, Arrival: 1200, Duration: 7200, Workers: 2, GPUs: 2, Priority: 1},
			{ID: 2, Arrival: 7800, Cluster: 1, Duration: 1800, Workers: 1, GPUs: 1, Priority: 1},
			{ID: 3, Arrival: 4000, Duration: 900, Workers: 1, GPUs: 8, Priority: 1},
		},
	}
	s := Describe(in)
	want := Summary{Instance: "x", Clusters: 2, Nodes: 3, GPUs: 20, Jobs: 4, GPUHours: 14.5, SpanH: 2, Load: 14.5 / 40, ClusterLoad: 50400.0 / (16 * 3400),
		Types: []TypeCount{{1, 8, 2}, {1, 1, 1}, {2, 2, 1}}}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("got %+v\nwant %+v", s, want)
	}
	b, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(b), `"offered_load":0.3625`) || !strings.Contains(string(b), `"gpu_hours":14.5`) {
		t.Fatalf("json %s %v", b, err)
	}

	// All jobs at one instant: the load is undefined, null in JSON.
	one := in
	one.Jobs = in.Jobs[:1]
	s1 := Describe(one)
	if !math.IsNaN(s1.Load) || !math.IsNaN(s1.ClusterLoad) || s1.SpanH != 0 {
		t.Fatalf("single job: %+v", s1)
	}
	if b, err := json.Marshal(s1); err != nil || !strings.Contains(string(b), `"offered_load":null`) || !strings.Contains(string(b), `"mean_cluster_load":null`) {
		t.Fatalf("json %s %v", b, err)
	}

	tot := Totals([]Summary{s, s1})
	if tot.Jobs != 5 || tot.GPUs != 40 || tot.GPUHours != 22.5 || tot.Load != 14.5/40 || tot.ClusterLoad != s.ClusterLoad ||
		!reflect.DeepEqual(tot.Types, []TypeCount{{1, 8, 3}, {1, 1, 1}, {2, 2, 1}}) {
		t.Fatalf("totals %+v", tot)
	}
}

// TestDescribeGeneratedLoad: a generated instance's offered load lies near
// the configured λ/λ_max range (SPEC §7 with Describe's definition).
func TestDescribeGeneratedLoad(t *testing.T) {
	s := PaperSettings()
	s.Clusters, s.Nodes = [2]int{5, 5}, [2]int{60, 60}
	s.LoadMin, s.LoadMax = 0.5, 0.5
	insts, err := Generate(s, 9, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range insts {
		d := Describe(in)
		// 600 jobs per cluster: ρ has a few percent of noise (observed
		// 0.48–0.51) from the arrival span and the heavy 12-hour types.
		t.Logf("%s: offered load %.3f, mean cluster load %.3f", in.Name, d.Load, d.ClusterLoad)
		if d.Load < 0.4 || d.Load > 0.6 || d.ClusterLoad < 0.4 || d.ClusterLoad > 0.6 {
			t.Errorf("%s: offered load %.3f, mean cluster load %.3f, want ≈ 0.5", in.Name, d.Load, d.ClusterLoad)
		}
	}

	// The paper's λ_p ~ U[λ_max/4, λ_max]: the mean cluster load over
	// many clusters approaches 0.625 (per-cluster sd ≈ 0.3 with the heavy
	// job types, so the mean over ≈ 250 clusters has sd ≈ 0.02).
	insts, err = Generate(PaperSettings(), 11, 18)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, in := range insts {
		sum += Describe(in).ClusterLoad
	}
	if mean := sum / float64(len(insts)); math.Abs(mean-0.625) > 0.08 {
		t.Errorf("mean cluster load %.3f over %d instances, want 0.625 ± 0.08", mean, len(insts))
	} else {
		t.Logf("mean cluster load %.3f", mean)
	}
}

func TestDescribeHetero(t *testing.T) {
	in := simcore.Instance{Name: "h",
		Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 1, GPUType: "V100"}, {Nodes: 3, GPUsPerNode: 1, GPUType: "K80"}, {Nodes: 1, GPUsPerNode: 1, GPUType: "V100"}},
		Jobs: []simcore.Job{
			{ID: 0, Duration: 10, Workers: 1, GPUs: 1, Priority: 1, Deadline: 50, TypeDurations: map[string]int64{"V100": 10, "K80": 30}},
			{ID: 1, Duration: 10, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: map[string]int64{"V100": 10, "K80": 0}},
			{ID: 2, Duration: 8, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: map[string]int64{"K80": 16}},
			{ID: 3, Duration: 8, Workers: 1, GPUs: 1, Priority: 1},
		}}
	s := Describe(in)
	// Ratios: job 0 30/10 = 3; job 1 runs on V100 only: 1; job 2 K80 16,
	// V100 falls back to 8: 2; job 3 has no per-type durations.
	if !reflect.DeepEqual(s.GPUTypes, []TypeGPUs{{"K80", 3}, {"V100", 3}}) {
		t.Fatalf("gpu types %+v", s.GPUTypes)
	}
	if s.Speed == nil || *s.Speed != (Spread{N: 3, Min: 1, Median: 2, Max: 3}) {
		t.Fatalf("speed %+v", s.Speed)
	}
	if s.Deadlines != 1 || s.DeadlineFraction() != 0.25 {
		t.Fatalf("deadlines %d", s.Deadlines)
	}
	tot := Totals([]Summary{s, s})
	if tot.Deadlines != 2 || tot.Speed.N != 6 || tot.Speed.Median != 2 || !reflect.DeepEqual(tot.GPUTypes, []TypeGPUs{{"K80", 6}, {"V100", 6}}) {
		t.Fatalf("totals %+v", tot)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"speed_ratio":{"n":3,"min":1,"median":2,"max":3}`) || !strings.Contains(string(b), `"deadlines":1`) {
		t.Fatalf("json %s", b)
	}
}

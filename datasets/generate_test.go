package datasets

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

func smallSettings() GenSettings {
	s := PaperSettings()
	s.Clusters = [2]int{2, 4}
	s.Nodes = [2]int{4, 12}
	s.JobsPerNode = 6
	return s
}

func TestJobTypesTableII(t *testing.T) {
	ts := JobTypes()
	if len(ts) != 21 {
		t.Fatalf("Table II has 21 types, got %d", len(ts))
	}
	seen := map[[2]int]bool{}
	for _, ty := range ts {
		if ty.Workers < 1 || ty.GPUs%ty.Workers != 0 || !(ty.MeanHours > 0) || !(ty.Weight > 0) {
			t.Errorf("bad type %+v", ty)
		}
		k := [2]int{ty.Workers, ty.GPUs}
		if seen[k] {
			t.Errorf("type %v listed twice", k)
		}
		seen[k] = true
	}
	ts[0].Workers = 99
	if JobTypes()[0].Workers != 1 {
		t.Error("JobTypes shares its slice between calls")
	}
}

func TestGenSettingsValidate(t *testing.T) {
	cases := []struct {
		key string
		mut func(*GenSettings)
	}{
		{"generator.clusters", func(s *GenSettings) { s.Clusters = [2]int{0, 3} }},
		{"generator.clusters", func(s *GenSettings) { s.Clusters = [2]int{4, 3} }},
		{"generator.nodes", func(s *GenSettings) { s.Nodes = [2]int{0, 3} }},
		{"generator.gpus_per_node", func(s *GenSettings) { s.GPUsPerNode = 0 }},
		{"generator.jobs_per_node", func(s *GenSettings) { s.JobsPerNode = math.NaN() }},
		{"generator.priorities", func(s *GenSettings) { s.Priorities = [2]int{0, 2} }},
		{"generator.load_min", func(s *GenSettings) { s.LoadMin = 0 }},
		{"generator.load_min", func(s *GenSettings) { s.LoadMax = s.LoadMin / 2 }},
		{"generator.arrivals", func(s *GenSettings) { s.Arrivals = "bursty" }},
		{"generator.interval", func(s *GenSettings) { s.Arrivals, s.Interval = ArrivalsUniform, 0 }},
		{"generator.min_duration", func(s *GenSettings) { s.MinDuration = 0 }},
		{"generator.duration_scale", func(s *GenSettings) { s.DurationScale = math.Inf(1) }},
	}
	for _, c := range cases {
		s := smallSettings()
		c.mut(&s)
		_, err := Generate(s, 1, 1)
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s: got %v, want an error naming the key", c.key, err)
		}
	}
	if _, err := Generate(smallSettings(), 1, -1); err == nil {
		t.Error("negative instance count accepted")
	}
}

// TestGenerateOrderIndependent: Generate (parallel) equals generating the
// instances one by one, in reverse order.
func TestGenerateOrderIndependent(t *testing.T) {
	s := smallSettings()
	const n = 12
	par, err := Generate(s, 7, n)
	if err != nil {
		t.Fatal(err)
	}
	for i := n - 1; i >= 0; i-- {
		one, err := GenerateInstance(s, 7, i)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(one, par[i]) {
			t.Fatalf("instance %d differs between parallel and serial generation", i)
		}
		if one.Name != InstanceName(i) {
			t.Fatalf("instance %d named %q", i, one.Name)
		}
	}
	other, _ := Generate(s, 8, 1)
	if reflect.DeepEqual(other[0], par[0]) {
		t.Error("seeds 7 and 8 give the same instance 0")
	}
	if reflect.DeepEqual(par[0].Jobs, par[1].Jobs) {
		t.Error("instances 0 and 1 are equal")
	}
	if SplitSeed(1, "train") == SplitSeed(1, "test") || SplitSeed(1, "train") == SplitSeed(2, "train") {
		t.Error("SplitSeed does not separate splits or seeds")
	}
}

// lambdaMax is λ_max = N·G / E[d·g] over the Table II types feasible on c,
// computed here from the definition in SPEC §7.
func lambdaMax(c simcore.Cluster, scale float64) float64 {
	var w, wdg float64
	for _, ty := range JobTypes() {
		if (simcore.Job{Workers: ty.Workers, GPUs: ty.GPUs}).FitsOn(c) {
			w += ty.Weight
			wdg += ty.Weight * ty.MeanHours * 3600 * scale * float64(ty.GPUs)
		}
	}
	return float64(c.GPUs()) / (wdg / w)
}

// TestGenerateSanity checks the paper generator (SPEC §7) over many
// instances: structural ranges exactly, and the duration, type-mix and
// arrival-rate distributions within statistical tolerances.
func TestGenerateSanity(t *testing.T) {
	s := PaperSettings()
	insts, err := Generate(s, 42, 40)
	if err != nil {
		t.Fatal(err)
	}
	types := JobTypes()
	var wAll float64
	for _, ty := range types {
		wAll += ty.Weight
	}
	// Statistics: durations of type 1x8; the share of 1x1 jobs on clusters
	// where all 21 types fit; the arrival rate relative to λ_max.
	var sum1x8 float64
	var n1x8, n1x1, nAllFit int
	var rateRatio float64
	var nRates int
	for _, in := range insts {
		if len(in.Clusters) < s.Clusters[0] || len(in.Clusters) > s.Clusters[1] {
			t.Fatalf("%s: %d clusters", in.Name, len(in.Clusters))
		}
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		perCluster := make([][]simcore.Job, len(in.Clusters))
		for i, j := range in.Jobs {
			if j.ID != int64(i) {
				t.Fatalf("%s: job %d has id %d", in.Name, i, j.ID)
			}
			if i > 0 && j.Arrival < in.Jobs[i-1].Arrival {
				t.Fatalf("%s: job ids not in arrival order at %d", in.Name, i)
			}
			if !j.FitsOn(in.Clusters[j.Cluster]) {
				t.Fatalf("%s: job %d does not fit its user cluster", in.Name, j.ID)
			}
			if j.Priority < s.Priorities[0] || j.Priority > s.Priorities[1] || j.Duration < s.MinDuration {
				t.Fatalf("%s: job %d out of range: %+v", in.Name, j.ID, j)
			}
			perCluster[j.Cluster] = append(perCluster[j.Cluster], j)
		}
		for p, c := range in.Clusters {
			if c.Nodes < s.Nodes[0] || c.Nodes > s.Nodes[1] || c.GPUsPerNode != s.GPUsPerNode {
				t.Fatalf("%s: cluster %d is %+v", in.Name, p, c)
			}
			js := perCluster[p]
			if want := int(math.Round(s.JobsPerNode * float64(c.Nodes))); len(js) != want {
				t.Fatalf("%s: cluster %d has %d jobs, want %d", in.Name, p, len(js), want)
			}
			if js[0].Arrival != 0 {
				t.Fatalf("%s: cluster %d: first arrival %d, want 0", in.Name, p, js[0].Arrival)
			}
			allFit := true
			for _, ty := range types {
				allFit = allFit && (simcore.Job{Workers: ty.Workers, GPUs: ty.GPUs}).FitsOn(c)
			}
			for _, j := range js {
				if j.Workers == 1 && j.GPUs == 8 {
					sum1x8 += float64(j.Duration)
					n1x8++
				}
				if allFit {
					nAllFit++
					if j.Workers == 1 && j.GPUs == 1 {
						n1x1++
					}
				}
			}
			// (n−2)/T is an unbiased estimate of a Poisson rate from n
			// arrivals spanning T.
			if last := js[len(js)-1].Arrival; last > 0 {
				rateRatio += float64(len(js)-2) / float64(last) / lambdaMax(c, s.DurationScale)
				nRates++
			}
		}
	}
	// Duration: mean of ⌊X⌋ for X ~ Exp(m) is m − ≈0.5; sd of the sample
	// mean is m/√n. Allow 5 standard errors.
	m := 3.285060 * 3600
	got := sum1x8 / float64(n1x8)
	if se := m / math.Sqrt(float64(n1x8)); math.Abs(got-(m-0.5)) > 5*se {
		t.Errorf("mean duration of 1x8: %.0f s over %d jobs, want %.0f ± %.0f", got, n1x8, m, 5*se)
	}
	// Type mix: the 1x1 share where every type fits is its weight / Σ w.
	pw := 0.244 / wAll
	share := float64(n1x1) / float64(nAllFit)
	if se := math.Sqrt(pw * (1 - pw) / float64(nAllFit)); math.Abs(share-pw) > 5*se {
		t.Errorf("share of 1x1 jobs: %.4f over %d jobs, want %.4f ± %.4f", share, nAllFit, pw, 5*se)
	}
	// Arrival rate: λ_p/λ_max ~ U[load_min, load_max], mean 0.625; the
	// per-cluster estimate has a relative error ≈ 1/√n ≤ 10 %, and the
	// uniform draw an sd of 0.22, so the mean over ≥ 400 clusters is
	// within ±0.05 of 0.625 with ample margin.
	ratio := rateRatio / float64(nRates)
	if want := (s.LoadMin + s.LoadMax) / 2; math.Abs(ratio-want) > 0.05 {
		t.Errorf("mean λ/λ_max = %.3f over %d clusters, want %.3f ± 0.05", ratio, nRates, want)
	}
	t.Logf("%d instances, 1x8 mean %.0f s (n=%d), 1x1 share %.4f (n=%d), λ/λ_max %.3f (n=%d)",
		len(insts), got, n1x8, share, nAllFit, ratio, nRates)
}

// TestGenerateLoadStudy: the §IV-D variant — a fixed 5 × 40 topology and
// one job every Δ seconds in the instance as a whole, the clusters' jobs
// interleaved at random.
func TestGenerateLoadStudy(t *testing.T) {
	s := PaperSettings()
	s.Clusters, s.Nodes = [2]int{5, 5}, [2]int{40, 40}
	s.JobsPerNode = 5
	s.Arrivals, s.Interval = ArrivalsUniform, 90.5
	insts, err := Generate(s, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range insts {
		if len(in.Clusters) != 5 || len(in.Jobs) != 1000 {
			t.Fatalf("%s: %d clusters, %d jobs; want 5 and 1000", in.Name, len(in.Clusters), len(in.Jobs))
		}
		perCluster := make([]int, 5)
		firstHalf := make([]int, 5)
		for m, j := range in.Jobs {
			if in.Clusters[j.Cluster].Nodes != 40 {
				t.Fatalf("cluster %d has %d nodes", j.Cluster, in.Clusters[j.Cluster].Nodes)
			}
			if want := int64(math.Floor(float64(m) * s.Interval)); j.Arrival != want {
				t.Fatalf("%s: job %d arrives at %d, want %d", in.Name, m, j.Arrival, want)
			}
			perCluster[j.Cluster]++
			if m < 500 {
				firstHalf[j.Cluster]++
			}
		}
		for p := range 5 {
			// 200 jobs per cluster; a random interleaving puts about 100
			// of each in the first half (sd ≈ 7).
			if perCluster[p] != 200 || firstHalf[p] < 65 || firstHalf[p] > 135 {
				t.Fatalf("%s: cluster %d: %d jobs, %d in the first half", in.Name, p, perCluster[p], firstHalf[p])
			}
		}
	}
}

// TestGenerateLoadStudyCommonJobs: at two intervals the same (seed, index)
// gives the same jobs, only spaced differently.
func TestGenerateLoadStudyCommonJobs(t *testing.T) {
	s := smallSettings()
	s.Arrivals, s.Interval = ArrivalsUniform, 60
	a, err := GenerateInstance(s, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	s.Interval = 150
	b, err := GenerateInstance(s, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Jobs) != len(b.Jobs) || !reflect.DeepEqual(a.Clusters, b.Clusters) {
		t.Fatal("topology or job count depends on the interval")
	}
	for i := range a.Jobs {
		ja, jb := a.Jobs[i], b.Jobs[i]
		if jb.Arrival != int64(i)*150 || ja.Arrival != int64(i)*60 {
			t.Fatalf("job %d arrives at %d and %d", i, ja.Arrival, jb.Arrival)
		}
		ja.Arrival, jb.Arrival = 0, 0
		if !reflect.DeepEqual(ja, jb) {
			t.Fatalf("job %d differs beyond its arrival: %+v vs %+v", i, ja, jb)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	s := PaperSettings()
	jobs := 0
	for b.Loop() {
		insts, err := Generate(s, 1, 10)
		if err != nil {
			b.Fatal(err)
		}
		jobs = 0
		for _, in := range insts {
			jobs += len(in.Jobs)
		}
	}
	b.ReportMetric(float64(jobs), "jobs/op")
}

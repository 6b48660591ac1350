package datasets

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testMatrix is a made-up throughput matrix in the Gavel layout: kind x
// runs 1, 2, 4 steps/s on slow, mid, fast; kind y 3, 3, 3; a scale-2 row
// that must be ignored.
const testMatrix = "job_type,scale_factor,slow,mid,fast\n" +
	"\"x (batch size 1)\",1,1,2,4\n\"y\",1,3,3,3\n\"x (batch size 1)\",2,9,9,9\n"

func writeMatrix(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "thr.csv")
	if err := os.WriteFile(p, []byte(testMatrix), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func heteroSettings(t testing.TB) GenSettings {
	s := PaperSettings()
	s.GPUsPerNode = 1
	s.MaxGPUs = 1
	s.Arrivals = ArrivalsBatch
	s.Jobs = 200
	s.Throughputs = writeMatrix(t)
	s.Types = []GenType{{Name: "A", Column: "fast", Nodes: 10}, {Name: "B", Column: "mid", Nodes: 15}, {Name: "C", Column: "slow", Nodes: 20}}
	s.Deadlines = GenDeadlines{Fraction: 0.3, Slack: [2]float64{1.5, 3}}
	return s
}

func TestReadThroughputs(t *testing.T) {
	m, err := ReadThroughputs(writeMatrix(t))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Columns, []string{"slow", "mid", "fast"}) || len(m.Kinds) != 2 || m.Rate[0][2] != 4 {
		t.Fatalf("%+v", m)
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("job_type,scale_factor,a\n\"x\",1,0\n"), 0o644)
	if _, err := ReadThroughputs(bad); err == nil || !strings.Contains(err.Error(), "not a throughput > 0") {
		t.Fatalf("zero rate: %v", err)
	}
}

// TestGavelMatrix reads the real Gavel matrix beside the repository (it is
// not copied into the repository; the test is skipped without it).
func TestGavelMatrix(t *testing.T) {
	p := "../../shared/traces/gavel/simulation_throughputs_isolated.csv"
	if _, err := os.Stat(p); err != nil {
		t.Skip("Gavel trace not available")
	}
	m, err := ReadThroughputs(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Columns, []string{"k80", "p100", "v100"}) || len(m.Kinds) != 26 {
		t.Fatalf("columns %v, %d kinds", m.Columns, len(m.Kinds))
	}
}

func TestGenerateHetero(t *testing.T) {
	s := heteroSettings(t)
	insts, err := Generate(s, 7, 4)
	if err != nil {
		t.Fatal(err)
	}
	deadlines, jobs := 0, 0
	for _, in := range insts {
		if len(in.Clusters) != 3 || in.Clusters[0].GPUType != "A" || in.Clusters[2].Nodes != 20 || in.Clusters[1].GPUsPerNode != 1 {
			t.Fatalf("clusters %+v", in.Clusters)
		}
		if len(in.Jobs) != 200 {
			t.Fatalf("%d jobs", len(in.Jobs))
		}
		// 200 jobs over 10/15/20 GPUs: 44, 66, 88 → 198, +1 to the first two.
		per := make([]int, 3)
		for _, j := range in.Jobs {
			per[j.Cluster]++
		}
		if !reflect.DeepEqual(per, []int{45, 67, 88}) {
			t.Fatalf("jobs per cluster %v", per)
		}
		for _, j := range in.Jobs {
			jobs++
			if j.GPUs != 1 || j.Workers != 1 || j.Arrival != 0 {
				t.Fatalf("job %+v: not a single-GPU batch job", j)
			}
			a, b, c := j.TypeDurations["A"], j.TypeDurations["B"], j.TypeDurations["C"]
			// Kind x: 4:2:1 steps/s → d, 2d, 4d; kind y: equal speeds.
			okX := a == j.Duration && b == 2*j.Duration && c == 4*j.Duration
			okY := a == j.Duration && b == j.Duration && c == j.Duration
			if !okX && !okY {
				t.Fatalf("job %d: durations %v with duration %d", j.ID, j.TypeDurations, j.Duration)
			}
			if j.Deadline != 0 {
				deadlines++
				slack := float64(j.Deadline-j.Arrival) / float64(j.Duration)
				if slack < 1.5-1e-9 && j.Deadline-j.Arrival > 1 || slack > 3+1e-9 {
					t.Fatalf("job %d: deadline %d for duration %d (slack %.2f)", j.ID, j.Deadline, j.Duration, slack)
				}
			}
		}
	}
	if frac := float64(deadlines) / float64(jobs); math.Abs(frac-0.3) > 0.05 {
		t.Fatalf("deadline fraction %.3f, want ≈ 0.3", frac)
	}
	again, err := Generate(s, 7, 4)
	if err != nil || !reflect.DeepEqual(insts, again) {
		t.Fatal("not deterministic")
	}
}

// TestExtrasLeaveMainStream: turning deadlines on changes nothing but the
// deadlines (the extras have their own random stream).
func TestExtrasLeaveMainStream(t *testing.T) {
	s := PaperSettings()
	s.Clusters = [2]int{2, 3}
	s.Nodes = [2]int{10, 12}
	plain, err := Generate(s, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Deadlines = GenDeadlines{Fraction: 0.5, Slack: [2]float64{1, 2}}
	withDL, err := Generate(s, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range plain {
		for k := range plain[i].Jobs {
			j := withDL[i].Jobs[k]
			if j.Deadline != 0 {
				n++
			}
			j.Deadline = 0
			if !reflect.DeepEqual(j, plain[i].Jobs[k]) {
				t.Fatalf("instance %d job %d changed beyond its deadline", i, k)
			}
		}
	}
	if n == 0 {
		t.Fatal("no deadlines drawn")
	}
}

func TestGenSettingsHeteroValidate(t *testing.T) {
	cases := []struct {
		key string
		mut func(*GenSettings)
	}{
		{"generator.deadlines.fraction", func(s *GenSettings) { s.Deadlines.Fraction = 1.5 }},
		{"generator.deadlines.slack", func(s *GenSettings) { s.Deadlines.Slack = [2]float64{2, 1} }},
		{"generator.throughputs", func(s *GenSettings) { s.Throughputs = "" }},
		{"appears twice", func(s *GenSettings) { s.Types[1].Name = "A" }},
		{"nodes = 0", func(s *GenSettings) { s.Types[0].Nodes = 0 }},
		{"generator.jobs", func(s *GenSettings) { s.Jobs = -1 }},
		{"generator.arrivals", func(s *GenSettings) { s.Arrivals = "burst" }},
	}
	for _, c := range cases {
		s := heteroSettings(t)
		c.mut(&s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s: %v", c.key, err)
		}
	}
	s := heteroSettings(t)
	s.Types[0].Column = "h100"
	if _, err := Generate(s, 1, 1); err == nil || !strings.Contains(err.Error(), `column "h100" is not in the throughput matrix`) {
		t.Errorf("unknown column: %v", err)
	}
}

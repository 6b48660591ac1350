package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
)

// TestSimulateHydraFloatClock: the hand-traced case of hydra's float-clock
// test as a Hydra case file (job j3 arrives at 2 with ddl 6, i.e. due at
// 8). Under --clock hydra-float j0's float remainder delays A by 1 s: j3
// runs [4, 9), so avg JCT = (3 + 1 + 61 + 7)/4 = 18 s, 1 s of tardiness, 1
// miss; the engine runs j3 [3, 8) (17.75 s, no miss). Other schedulers and
// per-job outputs are refused.
func TestSimulateHydraFloatClock(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "case.csv")
	csv := ",job_name,norm_job_submit_time,ddl,A,B\n0,j0,0,inf,3,50\n1,j1,0,inf,40,1\n2,j2,0,inf,41,60\n3,j3,2,6,5,100\n"
	if err := os.WriteFile(in, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	if _, _, err := runApp(t, "data", "import", "hydra", "--in", in, "--out", ds, "--gpus", "A=1,B=1", "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	out, _, err := runApp(t, "simulate", "--dataset", ds, "--scheduler", "sjf-fastest", "--clock", "hydra-float", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	var row experiment.FloatClockRow
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &row); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if row.Jobs != 4 || row.AvgJCT < 18-1e-9 || row.AvgJCT > 18+1e-9 || row.TotalTardiness < 1-1e-9 || row.TotalTardiness > 1+1e-9 || row.DeadlineMisses != 1 {
		t.Fatalf("float clock: %+v, want 4 jobs, 18 s, 1 s, 1 miss", row)
	}
	engine, _, err := runApp(t, "simulate", "--dataset", ds, "--scheduler", "sjf-fastest", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(engine, `"deadline_misses":0`) {
		t.Fatalf("engine: want no miss, got %s", engine)
	}
	for _, args := range [][]string{
		{"--scheduler", "edf", "--clock", "hydra-float"},
		{"--scheduler", "sjf-fastest", "--clock", "hydra-float", "--jobs-out", filepath.Join(dir, "j.csv")},
		{"--scheduler", "sjf-fastest", "--clock", "float"},
	} {
		if out, _, err := runApp(t, append([]string{"simulate", "--dataset", ds, "--quiet"}, args...)...); err == nil {
			t.Fatalf("%v: accepted, printed %q", args, out)
		}
	}
}

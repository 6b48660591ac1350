package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testCases = ",job_name,norm_job_submit_time,ddl,A100,V100,GTX2080Ti\n" +
	"0,a,0,inf,100,150,300\n1,b,0,500,200,250,inf\n2,c,0,1000,0,80,90\n"

func TestDataImportHydra(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "cases.csv")
	os.WriteFile(in, []byte(testCases), 0o644)
	out := filepath.Join(dir, "ds")
	stdout, _, err := runApp(t, "data", "import", "hydra", "--in", in, "--out", out, "--gpus", "A100=15,V100=15,GTX2080Ti=15", "--jobs", "2", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "2 jobs, 1 with a deadline; 3 clusters") {
		t.Fatalf("stdout %q", stdout)
	}
	stdout, _, err = runApp(t, "data", "describe", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"GPU types (GPUs over all instances): A100 15, GTX2080Ti 15, V100 15", "speed ratio slowest/fastest type per job: min 1.25, median 2.12, max 3.00", "jobs with a deadline: 50.0% (1 of 2)"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("describe lacks %q:\n%s", w, stdout)
		}
	}
	// Bad input: one clear error, nothing written.
	for name, c := range map[string]struct{ text, gpus, want string }{
		"missing type column":  {testCases, "A100=1,H100=2", `missing type column "H100"`},
		"non-numeric duration": {testCases + "3,d,0,inf,1,fast,1\n", "A100=1,V100=1", `column V100: duration "fast"`},
		"negative deadline":    {testCases + "3,d,0,-1,1,1,1\n", "A100=1", "negative deadline"},
	} {
		bad := filepath.Join(dir, name+".csv")
		os.WriteFile(bad, []byte(c.text), 0o644)
		o := filepath.Join(dir, name)
		_, _, err := runApp(t, "data", "import", "hydra", "--in", bad, "--out", o, "--gpus", c.gpus)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: %v", name, err)
		}
		if _, serr := os.Stat(o); serr == nil {
			t.Errorf("%s: output written", name)
		}
	}
}

func TestDataGenHetero(t *testing.T) {
	dir := t.TempDir()
	matrix := filepath.Join(dir, "thr.csv")
	os.WriteFile(matrix, []byte("job_type,scale_factor,k80,p100,v100\nx,1,1,2,4\ny,1,2,2,2\n"), 0o644)
	for _, cfg := range []string{"hetero-light", "hetero-heavy"} {
		out := filepath.Join(dir, cfg)
		_, _, err := runApp(t, "data", "gen", "--config", cfg, "--instances", "2", "--out", out, "generator.jobs=100", "generator.throughputs="+matrix)
		if err != nil {
			t.Fatal(err)
		}
		stdout, _, err := runApp(t, "data", "describe", out)
		if err != nil {
			t.Fatal(err)
		}
		gpus := map[string]string{"hetero-light": "K80 30, P100 30, V100 30", "hetero-heavy": "K80 40, P100 30, V100 20"}[cfg]
		if !strings.Contains(stdout, "GPU types (GPUs over all instances): "+gpus) || !strings.Contains(stdout, "speed ratio slowest/fastest type per job: min 1.00") ||
			!strings.Contains(stdout, "jobs with a deadline:") || !strings.Contains(stdout, "1x1: 100%") {
			t.Errorf("%s describe:\n%s", cfg, stdout)
		}
	}
}

func TestSimulateHydraModelSchedulers(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "cases.csv")
	os.WriteFile(in, []byte(testCases), 0o644)
	ds := filepath.Join(dir, "ds")
	if _, _, err := runApp(t, "data", "import", "hydra", "--in", in, "--out", ds, "--gpus", "A100=1,V100=1,GTX2080Ti=1"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"hydra", "hydra-swap", "edf", "sjf-fastest", "allox", "chronus", "hydra:budget=10:penalty=1000:compare=increment"} {
		out, _, err := runApp(t, "simulate", "--dataset", ds, "--scheduler", s, "--quiet")
		if err != nil || !strings.Contains(out, "scheduler: "+s) {
			t.Errorf("%s: %v\n%s", s, err, out)
		}
	}
	for spec, want := range map[string]string{
		"hydra:budget=-1":     "hydra.budget = -1",
		"hydra:compare=best":  `hydra.compare = "best"`,
		"hydra:f=3":           "unknown parameter",
		"tiresias:budget=100": "only the Hydra-model schedulers",
	} {
		if _, _, err := runApp(t, "simulate", "--dataset", ds, "--scheduler", spec, "--quiet"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	// A multi-GPU job: one clear error naming the scheduler.
	multi := filepath.Join(dir, "multi")
	os.MkdirAll(multi, 0o755)
	os.WriteFile(filepath.Join(multi, "clusters.csv"), []byte("instance,cluster,nodes,gpus_per_node\nm,0,2,4\n"), 0o644)
	os.WriteFile(filepath.Join(multi, "jobs.csv"), []byte("instance,job,arrival,cluster,duration,workers,gpus,priority\nm,0,0,0,10,1,1,1\nm,1,0,0,10,1,2,1\n"), 0o644)
	_, _, err := runApp(t, "simulate", "--dataset", multi, "--scheduler", "hydra", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "scheduler hydra: job 1 uses 2 GPUs") {
		t.Errorf("multi-GPU job: %v", err)
	}
}

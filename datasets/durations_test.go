package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

const heteroClusters = "instance,cluster,nodes,gpus_per_node,gpu_type\nh,0,2,1,A100\nh,1,3,1,V100\n"
const heteroJobs = "instance,job,arrival,cluster,duration,workers,gpus,priority,deadline\n" +
	"h,0,0,0,100,1,1,1,500\nh,1,5,1,80,1,1,1,\nh,2,5,1,60,1,1,1,\n"

func writeHeteroDir(t *testing.T, durations string) string {
	t.Helper()
	dir := writeCSVDir(t, heteroClusters, heteroJobs)
	if durations != "" {
		if err := os.WriteFile(filepath.Join(dir, "durations.csv"), []byte(durations), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadDurationsCSV(t *testing.T) {
	// Job 0: 100 s on A100, 250 on V100. Job 1: A100 only (V100 0 = cannot
	// run). Job 2: V100 empty (cannot run), no A100 row: falls back to 60.
	dir := writeHeteroDir(t, "instance,job,gpu_type,duration\nh,0,A100,100\nh,0,V100,250\nh,1,V100,0\nh,1,A100,40\nh,2,V100,\n")
	ds, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	jobs := ds.Instances[0].Jobs
	want := []map[string]int64{{"A100": 100, "V100": 250}, {"A100": 40, "V100": 0}, {"V100": 0}}
	for i, w := range want {
		if !reflect.DeepEqual(jobs[i].TypeDurations, w) {
			t.Fatalf("job %d: %v, want %v", i, jobs[i].TypeDurations, w)
		}
	}
	if jobs[1].DurationOn("V100") != 0 || jobs[2].DurationOn("A100") != 60 || jobs[0].DurationOn("V100") != 250 {
		t.Fatal("DurationOn does not follow the table")
	}
	// Without the table every job has nil TypeDurations.
	ds, err = Read(writeHeteroDir(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range ds.Instances[0].Jobs {
		if j.TypeDurations != nil {
			t.Fatalf("job %d: %v without a durations table", j.ID, j.TypeDurations)
		}
	}
}

func TestDurationsRoundTrip(t *testing.T) {
	in := simcore.Instance{Name: "h",
		Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 1, GPUType: "A100"}, {Nodes: 1, GPUsPerNode: 1, GPUType: "V100"}},
		Jobs: []simcore.Job{
			{ID: 3, Cluster: 0, Duration: 10, Workers: 1, GPUs: 1, Priority: 1, Deadline: 40, TypeDurations: map[string]int64{"A100": 10, "V100": 31}},
			{ID: 4, Cluster: 1, Duration: 7, Workers: 1, GPUs: 1, Priority: 2, TypeDurations: map[string]int64{"A100": 0, "V100": 7}},
			{ID: 5, Cluster: 1, Duration: 9, Workers: 1, GPUs: 1, Priority: 3},
		}}
	for _, format := range []string{FormatCSV, FormatParquet} {
		dir := filepath.Join(t.TempDir(), "ds")
		if err := Write(dir, &Dataset{Instances: []simcore.Instance{in}}, format); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "durations."+format)); err != nil {
			t.Fatalf("%s: no durations table: %v", format, err)
		}
		ds, err := Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ds.Instances[0], in) {
			t.Fatalf("%s: read back %+v\nwant %+v", format, ds.Instances[0], in)
		}
	}
	// A homogeneous dataset gets no durations table.
	dir := filepath.Join(t.TempDir(), "ds")
	if err := Write(dir, testDataset(t, 1), FormatCSV); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "durations.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("homogeneous dataset has a durations table: %v", err)
	}
}

func TestWriteRefusesUnknownType(t *testing.T) {
	in := simcore.Instance{Name: "h", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1, GPUType: "A100"}},
		Jobs: []simcore.Job{{ID: 1, Duration: 5, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: map[string]int64{"A100": 5, "K80": 9}}}}
	dir := filepath.Join(t.TempDir(), "ds")
	err := Write(dir, &Dataset{Instances: []simcore.Instance{in}}, FormatCSV)
	if err == nil || !strings.Contains(err.Error(), `unknown gpu_type "K80"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused write left a directory behind")
	}
}

func TestReadDurationsBad(t *testing.T) {
	const head = "instance,job,gpu_type,duration\n"
	cases := []struct {
		name, durations, jobs string
		file                  string
		row                   int
		want                  []string
	}{
		{"unknown job", head + "h,0,A100,10\nh,9,A100,10\n", "", "durations.csv", 2, []string{`instance "h": job 9`, "unknown job"}},
		{"unknown type", head + "h,0,K80,10\n", "", "durations.csv", 1, []string{`job 0`, `gpu_type "K80"`, "unknown gpu_type", "A100, V100"}},
		{"unknown instance", head + "zz,0,A100,10\n", "", "durations.csv", 1, []string{`instance "zz"`, "unknown instance"}},
		{"negative duration", head + "h,1,A100,-3\n", "", "durations.csv", 1, []string{`job 1`, "duration = -3"}},
		{"duplicate", head + "h,1,A100,3\nh,1,A100,4\n", "", "durations.csv", 2, []string{"duplicate row"}},
		{"non-numeric", head + "h,1,A100,fast\n", "", "durations.csv", 1, []string{"column duration", `"fast" is not an integer`}},
		{"missing column", "instance,job,duration\nh,1,3\n", "", "durations.csv", 0, []string{`missing column "gpu_type"`}},
		{"empty type", head + "h,1,,3\n", "", "durations.csv", 1, []string{"empty gpu_type"}},
		{"runs nowhere", head + "h,1,A100,0\nh,1,V100,0\n", "", "jobs.csv", 0, []string{"job 1", "feasible on no cluster"}},
		{"negative deadline", "", "instance,job,arrival,cluster,duration,workers,gpus,priority,deadline\nh,0,0,0,100,1,1,1,-5\n",
			"jobs.csv", 1, []string{"job 0", "deadline = -5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			jobs := heteroJobs
			if c.jobs != "" {
				jobs = c.jobs
			}
			dir := writeCSVDir(t, heteroClusters, jobs)
			if c.durations != "" {
				os.WriteFile(filepath.Join(dir, "durations.csv"), []byte(c.durations), 0o644)
			}
			ds, err := Read(dir)
			if err == nil {
				t.Fatalf("accepted: %+v", ds.Instances)
			}
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("not a *FileError: %v", err)
			}
			if filepath.Base(fe.File) != c.file || fe.Row != c.row {
				t.Errorf("error locates %s row %d, want %s row %d: %v", filepath.Base(fe.File), fe.Row, c.file, c.row, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
		})
	}
}

// FuzzReadDurationsCSV: any durations table either reads into jobs whose
// per-type durations are those of the file, or fails with a *FileError.
func FuzzReadDurationsCSV(f *testing.F) {
	f.Add("instance,job,gpu_type,duration\nh,0,A100,100\nh,0,V100,250\n")
	f.Add("instance,job,gpu_type,duration\nh,1,V100,\n")
	f.Add("duration,gpu_type,job,instance\n5,A100,2,h\n")
	f.Add("instance,job,gpu_type,duration\nh,2,A100,1e3\n")
	f.Fuzz(func(t *testing.T, durations string) {
		dir := writeCSVDir(t, heteroClusters, heteroJobs)
		if err := os.WriteFile(filepath.Join(dir, "durations.csv"), []byte(durations), 0o644); err != nil {
			t.Fatal(err)
		}
		ds, err := Read(dir)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("not a *FileError: %v", err)
			}
			return
		}
		for _, in := range ds.Instances {
			if err := in.Validate(); err != nil {
				t.Fatalf("read an invalid instance: %v", err)
			}
			for _, j := range in.Jobs {
				for typ, d := range j.TypeDurations {
					if typ != "A100" && typ != "V100" || d < 0 {
						t.Fatalf("job %d: %s = %d", j.ID, typ, d)
					}
				}
			}
		}
	})
}

package hydracase

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// A hand-written case in the public format (not a copy of a public case).
const handCase = ",job_name,norm_job_submit_time,ddl,A100,V100,GTX2080Ti\n" +
	"0,resnet-a,0,inf,100,150.7,300\n" +
	"1,bert-b,10.9,500,200,250,inf\n" +
	"2,gan-c,20,1e3,0,80,90\n" +
	"3,lstm-d,30,inf,50,60,70\n"

var handGPUs = []TypeGPUs{{"A100", 2}, {"V100", 1}, {"GTX2080Ti", 3}}

func TestImportHand(t *testing.T) {
	ds, err := Import(strings.NewReader(handCase), "cases.csv", "cases", Options{GPUs: handGPUs})
	if err != nil {
		t.Fatal(err)
	}
	in := ds.Instances[0]
	wantClusters := []simcore.Cluster{{Nodes: 2, GPUsPerNode: 1, GPUType: "A100"}, {Nodes: 1, GPUsPerNode: 1, GPUType: "V100"}, {Nodes: 3, GPUsPerNode: 1, GPUType: "GTX2080Ti"}}
	if !reflect.DeepEqual(in.Clusters, wantClusters) {
		t.Fatalf("clusters %+v", in.Clusters)
	}
	job := func(id int64, name string, arr, ddl, dur int64, cl int, td map[string]int64) simcore.Job {
		return simcore.Job{ID: id, Name: name, Arrival: arr, Deadline: ddl, Duration: dur, Cluster: cl, Workers: 1, GPUs: 1, Priority: 1, TypeDurations: td}
	}
	want := []simcore.Job{
		job(0, "resnet-a", 0, 0, 100, 0, map[string]int64{"A100": 100, "V100": 150, "GTX2080Ti": 300}),
		job(1, "bert-b", 10, 510, 200, 0, map[string]int64{"A100": 200, "V100": 250, "GTX2080Ti": 0}),
		job(2, "gan-c", 20, 1020, 80, 1, map[string]int64{"A100": 0, "V100": 80, "GTX2080Ti": 90}),
		job(3, "lstm-d", 30, 0, 50, 0, map[string]int64{"A100": 50, "V100": 60, "GTX2080Ti": 70}),
	}
	if !reflect.DeepEqual(in.Jobs, want) {
		t.Fatalf("jobs\n%+v\nwant\n%+v", in.Jobs, want)
	}
	// Absolute deadlines and the first two rows only.
	ds, err = Import(strings.NewReader(handCase), "cases.csv", "cases", Options{GPUs: handGPUs, Jobs: 2, DDL: DDLAbsolute})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Instances[0].Jobs) != 2 || ds.Instances[0].Jobs[1].Deadline != 500 {
		t.Fatalf("%+v", ds.Instances[0].Jobs)
	}
	// Only two of the three type columns: the third is ignored.
	ds, err = Import(strings.NewReader(handCase), "cases.csv", "cases", Options{GPUs: handGPUs[1:]})
	if err != nil {
		t.Fatal(err)
	}
	if j := ds.Instances[0].Jobs[1]; j.Duration != 250 || j.Cluster != 0 || len(j.TypeDurations) != 2 {
		t.Fatalf("%+v", j)
	}
}

func TestImportBad(t *testing.T) {
	cases := []struct {
		name, text string
		gpus       []TypeGPUs
		row        int
		want       []string
	}{
		{"missing type column", handCase, []TypeGPUs{{"A100", 1}, {"H100", 1}}, 0, []string{`missing type column "H100"`}},
		{"missing ddl column", ",job_name,norm_job_submit_time,A100\n0,a,0,5\n", handGPUs[:1], 0, []string{`missing column "ddl"`}},
		{"non-numeric duration", handCase + "4,x,40,inf,fast,1,1\n", handGPUs, 5, []string{"job 4 (x)", "column A100", `duration "fast"`}},
		{"NaN duration", handCase + "4,x,40,inf,NaN,1,1\n", handGPUs, 5, []string{"column A100"}},
		{"negative duration", handCase + "4,x,40,inf,-3,1,1\n", handGPUs, 5, []string{"column A100"}},
		{"negative deadline", handCase + "4,x,40,-5,3,1,1\n", handGPUs, 5, []string{"job 4", "negative deadline"}},
		{"bad submit", handCase + "4,x,soon,inf,3,1,1\n", handGPUs, 5, []string{"norm_job_submit_time"}},
		{"runs nowhere", handCase + "4,x,40,inf,inf,0,\n", handGPUs, 5, []string{"job 4", "none of the types"}},
		{"wrong field count", handCase + "4,x,40\n", handGPUs, 5, []string{"wrong number of fields"}},
		{"no rows", ",job_name,norm_job_submit_time,ddl,A100\n", handGPUs[:1], 0, []string{"no job rows"}},
		{"empty", "", handGPUs, 0, []string{"empty file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds, err := Import(strings.NewReader(c.text), "cases.csv", "cases", Options{GPUs: c.gpus})
			if err == nil {
				t.Fatalf("accepted: %+v", ds.Instances)
			}
			var fe *datasets.FileError
			if !errors.As(err, &fe) || fe.File != "cases.csv" || fe.Row != c.row {
				t.Fatalf("error %v (want a FileError for cases.csv row %d)", err, c.row)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
}

func TestParseGPUs(t *testing.T) {
	g, err := ParseGPUs("A100=15, V100=10,GTX2080Ti=20")
	if err != nil || !reflect.DeepEqual(g, []TypeGPUs{{"A100", 15}, {"V100", 10}, {"GTX2080Ti", 20}}) {
		t.Fatalf("%v %v", g, err)
	}
	for _, bad := range []string{"", "A100", "A100=0", "A100=x", "A100=1,A100=2", "=3"} {
		if _, err := ParseGPUs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzImport: any input either imports into a valid instance whose jobs
// run on some given type, or fails with a *datasets.FileError.
func FuzzImport(f *testing.F) {
	f.Add(handCase)
	f.Add(",job_name,norm_job_submit_time,ddl,A100,V100,GTX2080Ti\n0,a,1.5,2.5,1e9,inf,\n")
	f.Add("job_name,ddl,norm_job_submit_time,V100,A100,GTX2080Ti\nx,inf,0,1,2,3\n")
	f.Fuzz(func(t *testing.T, text string) {
		ds, err := Import(strings.NewReader(text), "f.csv", "f", Options{GPUs: handGPUs})
		if err != nil {
			var fe *datasets.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("not a FileError: %v", err)
			}
			return
		}
		in := ds.Instances[0]
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, j := range in.Jobs {
			if j.Duration < 1 || j.Deadline < 0 || j.TypeDurations[handGPUs[j.Cluster].Type] != j.Duration {
				t.Fatalf("job %+v", j)
			}
		}
	})
}

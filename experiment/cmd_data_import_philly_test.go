package experiment

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/datasets/philly"
	"github.com/evogp/evogp/internal/tracefiles"
)

// importPhilly runs RunDataImportPhillyCommand (evogp data import philly)
// on the trace in, into out, with the command line's defaults changed by
// set and the flags named in given marked as given by the user.
func importPhilly(in, out, format string, set func(*philly.CommandLine), given ...string) (string, error) {
	cl := philly.CommandLine{In: in, Capacity: philly.CapacityHelios, Span: philly.DefaultSpan,
		GPUsPerNode: philly.DefaultGPUsPerNode, Priority: philly.DefaultPriority}
	set(&cl)
	g := map[string]bool{}
	for _, f := range given {
		g[f] = true
	}
	cl.Given = func(f string) bool { return g[f] }
	var w strings.Builder
	err := RunDataImportPhillyCommand(DataImportPhillyCommand{CommandLine: cl, Out: out, Format: format}, &w)
	return w.String(), err
}

// The Philly import on the real trace (issue 43: these ran through the
// command line in cmd/evogp; the flags' defaults are the CLI's).

func TestDataImportPhillySplits(t *testing.T) {
	in := tracefiles.Philly(t, "philly.csv")
	out := filepath.Join(t.TempDir(), "philly")
	stdout, err := importPhilly(in, out, datasets.FormatCSV, func(cl *philly.CommandLine) {
		cl.Train, cl.Validation, cl.Test = "2017-10-02..2017-10-05", "2017-10-05..2017-10-06", "2017-10-06..2017-10-08"
		cl.Scale = 0.25
	}, "train", "validation", "test", "capacity-scale", "format")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"82247 rows", "vc_not_kept", "outside_window", "scaled", "train", "validation", "test"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	sha := ""
	for split, days := range map[string]int{"train": 3, "validation": 1, "test": 2} {
		ds, err := datasets.Read(filepath.Join(out, split))
		if err != nil {
			t.Fatalf("%s: %v", split, err)
		}
		m := ds.Meta
		if m.Split != split || m.Source != "philly" || m.Format != "csv" || len(ds.Instances) != days {
			t.Errorf("%s: meta %+v, %d instances; want %d", split, m, len(ds.Instances), days)
		}
		if m.Options["jobs."+split] != strconv.Itoa(m.Jobs) || m.Options["capacity_flag"] != "helios" || m.Options["cluster.0"] != "6214e9" {
			t.Errorf("%s: options %v do not record the import (jobs %d)", split, m.Options, m.Jobs)
		}
		if sha == "" {
			sha = m.Options["sha256"]
		}
		if len(sha) != 64 || m.Options["sha256"] != sha {
			t.Errorf("%s: sha256 %q", split, m.Options["sha256"])
		}
		for _, inst := range ds.Instances {
			// A quarter of the Helios nodes (64 → 16, 8 → 2), raised where a job needs more.
			if c := inst.Clusters[0]; c.Nodes != 16 || c.GPUsPerNode != 8 {
				t.Errorf("%s %s: cluster 0 = %+v, want 16 × 8", split, inst.Name, c)
			}
			for p, c := range inst.Clusters {
				if want, _ := strconv.Atoi(m.Options["cluster."+strconv.Itoa(p)+".nodes"]); c.Nodes != want {
					t.Errorf("%s: cluster %d has %d nodes, dataset.yaml says %d", inst.Name, p, c.Nodes, want)
				}
			}
		}
	}
}

func TestDataImportPhillySingleCluster(t *testing.T) {
	in := tracefiles.Philly(t, "philly.csv")
	out := filepath.Join(t.TempDir(), "single")
	if _, err := importPhilly(in, out, datasets.FormatParquet, func(cl *philly.CommandLine) {
		cl.From, cl.To, cl.SingleCluster, cl.Nodes, cl.Span, cl.Priority = "2017-10-02", "2017-10-04", true, 100, 48*time.Hour, 2
	}, "from", "to", "single-cluster", "nodes", "instance-span", "priority"); err != nil {
		t.Fatal(err)
	}
	ds, err := datasets.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Instances) != 1 || ds.Meta.Format != "parquet" || ds.Meta.Options["single_cluster"] != "true" {
		t.Fatalf("%d instances, meta %+v", len(ds.Instances), ds.Meta)
	}
	inst := ds.Instances[0]
	if inst.Name != "philly-2017-10-02" || len(inst.Clusters) != 1 || inst.Clusters[0].Nodes != 100 || inst.Clusters[0].GPUsPerNode != 8 {
		t.Errorf("instance %s clusters %+v", inst.Name, inst.Clusters)
	}
	for _, j := range inst.Jobs {
		if j.Cluster != 0 || j.Priority != 2 || j.Arrival < 0 || j.Arrival >= 2*86400 {
			t.Fatalf("job %+v", j)
		}
	}
}

func TestDataImportPhillyLoadCapacity(t *testing.T) {
	in := tracefiles.Philly(t, "philly.csv")
	out := filepath.Join(t.TempDir(), "load")
	if _, err := importPhilly(in, out, datasets.FormatCSV, func(cl *philly.CommandLine) {
		cl.From, cl.To, cl.VCs, cl.Capacity = "2017-10-02", "2017-10-03", "11cb48,6214e9", "load:0.8"
	}, "from", "to", "vcs", "capacity", "format"); err != nil {
		t.Fatal(err)
	}
	ds, err := datasets.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Meta.Options["capacity"] != "load:0.8" || ds.Meta.Options["cluster.0"] != "11cb48" || ds.Meta.Options["vc_file"] != "" {
		t.Errorf("options %v", ds.Meta.Options)
	}
	for p, c := range ds.Instances[0].Clusters {
		if load, _ := strconv.ParseFloat(ds.Meta.Options["cluster."+strconv.Itoa(p)+".load"], 64); !(load <= 0.8) {
			t.Errorf("cluster %d: %d nodes, offered load %v above 0.8", p, c.Nodes, load)
		}
	}
}

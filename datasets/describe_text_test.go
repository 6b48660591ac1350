package datasets

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// TestWriteDescribeTable: the table of TestDescribe's instance, with the
// numbers computed there (14.5 GPU-h over 2 h on 20 GPUs: load 0.36).
func TestWriteDescribeTable(t *testing.T) {
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
	one := in
	one.Name, one.Jobs = "y", in.Jobs[:1]
	seed := uint64(7)
	m := Meta{Instances: 2, Clusters: 4, Jobs: 5, Format: FormatCSV, Split: "test", Source: "generator", Config: "smoke", Seed: &seed}
	var b strings.Builder
	if err := WriteDescribeTable(&b, "data/x", m, []Summary{Describe(in), Describe(one)}, 2); err != nil {
		t.Fatal(err)
	}
	want := "dataset data/x: 2 instances, 4 clusters, 5 jobs, csv, split test, source generator, config smoke, seed 7\n" +
		"instance  clusters  nodes  GPUs  jobs  GPU-h  span-h  load  cl-load  top job types (workers x GPUs: share of jobs)\n" +
		"x                2      3    20     4   14.5     2.0  0.36     0.93  1x8: 50%, 1x1: 25%, +1 more\n" +
		"y                2      3    20     1    8.0     0.0   n/a      n/a  1x8: 100%\n" +
		"total            4      6    40     5   22.5     2.0  0.36     0.93  1x8: 60%, 1x1: 20%, +1 more\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	// A deadline adds the heterogeneity lines; the JSON has one line per instance.
	in.Jobs[1].Deadline = 9000
	b.Reset()
	if err := WriteHeterogeneity(&b, []Summary{Describe(in)}); err != nil || b.String() != "jobs with a deadline: 25.0% (1 of 4)\n" {
		t.Errorf("heterogeneity %q, %v", b.String(), err)
	}
	b.Reset()
	if err := WriteDescribeJSON(&b, []Summary{Describe(in), Describe(one)}); err != nil || strings.Count(b.String(), "\n") != 2 ||
		!strings.HasPrefix(b.String(), `{"instance":"x"`) || !strings.Contains(b.String(), `"deadlines":1`) {
		t.Errorf("json %q, %v", b.String(), err)
	}
}

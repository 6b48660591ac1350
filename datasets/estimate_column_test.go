package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// The optional estimate column (SPEC §14) round-trips through Parquet and
// CSV; a dataset without estimates keeps its ten CSV columns.
func TestEstimateColumnRoundTrip(t *testing.T) {
	inst := simcore.Instance{Name: "e", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}}, Jobs: []simcore.Job{
		{ID: 1, Duration: 100, Workers: 1, GPUs: 4, Priority: 1, Estimate: 30},
		{ID: 2, Arrival: 5, Duration: 50, Workers: 1, GPUs: 2, Priority: 2},
	}}
	for _, format := range []string{FormatParquet, FormatCSV} {
		dir := filepath.Join(t.TempDir(), format)
		if err := Write(dir, &Dataset{Instances: []simcore.Instance{inst}}, format); err != nil {
			t.Fatal(err)
		}
		got, err := Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Instances[0].Jobs, inst.Jobs) {
			t.Fatalf("%s: read %+v, wrote %+v", format, got.Instances[0].Jobs, inst.Jobs)
		}
	}
	plain := inst
	plain.Jobs = []simcore.Job{inst.Jobs[1]}
	dir := t.TempDir()
	if err := Write(dir, &Dataset{Instances: []simcore.Instance{plain}}, FormatCSV); err != nil {
		t.Fatal(err)
	}
	head, _ := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	if first := strings.SplitN(string(head), "\n", 2)[0]; strings.Contains(first, "estimate") {
		t.Fatalf("a dataset without estimates got an estimate column: %s", first)
	}
}

func TestEstimateColumnRejectsNegative(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "clusters.csv"), []byte("instance,cluster,nodes,gpus_per_node\nh,0,1,4\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "jobs.csv"), []byte("instance,job,arrival,cluster,duration,workers,gpus,priority,estimate\nh,1,0,0,100,1,4,1,-5\n"), 0o644)
	_, err := Read(dir)
	if err == nil || !strings.Contains(err.Error(), "jobs.csv") || !strings.Contains(err.Error(), "estimate") {
		t.Fatalf("got %v, want an error naming jobs.csv and the estimate column", err)
	}
}

package experiment

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
)

// TestDataGenInstances: --instances when given (and ≥ 1), else the
// config's size for the split.
func TestDataGenInstances(t *testing.T) {
	cfg := configs.Default()
	cfg.Data.Train, cfg.Data.Validation, cfg.Data.Test = 11, 7, 0
	cases := []struct {
		o    DataGenCommand
		want int
		err  string
	}{
		{DataGenCommand{Split: "train"}, 11, ""},
		{DataGenCommand{Split: "validation"}, 7, ""},
		{DataGenCommand{Split: "validation", Instances: 3, InstancesGiven: true}, 3, ""},
		{DataGenCommand{Split: "other", Instances: 2, InstancesGiven: true}, 2, ""},
		{DataGenCommand{Split: "train", Instances: 0, InstancesGiven: true}, 0, "--instances 0: must be ≥ 1"},
		{DataGenCommand{Split: "test"}, 0, `split "test": the config gives no size`},
		{DataGenCommand{Split: "other", Instances: 5}, 0, `split "other": the config gives no size`}, // not given: ignored
	}
	for _, c := range cases {
		n, err := c.o.instances(cfg)
		if c.err == "" && (err != nil || n != c.want) || c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)) {
			t.Errorf("%+v: %d %v, want %d %q", c.o, n, err, c.want, c.err)
		}
	}
}

// TestDataGenCommand generates a small dataset and checks the printed
// line against the dataset read back, and the checks before any work.
func TestDataGenCommand(t *testing.T) {
	ctx := t.Context()
	out := filepath.Join(t.TempDir(), "d")
	var w strings.Builder
	o := DataGenCommand{Overrides: []string{"generator.jobs=30"}, Config: "smoke", Instances: 2, InstancesGiven: true,
		Seed: 5, SeedGiven: true, Out: out, Format: datasets.FormatCSV, Split: "validation"}
	if err := RunDataGenCommand(ctx, o, &w); err != nil {
		t.Fatal(err)
	}
	ds, err := datasets.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	clusters, jobs := 0, 0
	for _, in := range ds.Instances {
		clusters += len(in.Clusters)
		jobs += len(in.Jobs)
	}
	want := fmt.Sprintf("wrote 2 instances (%d clusters, %d jobs) to %s as csv (split validation, config smoke, seed 5)\n", clusters, jobs, out)
	if len(ds.Instances) != 2 || jobs != 60 || w.String() != want {
		t.Errorf("%d instances, %d jobs; printed %q, want %q", len(ds.Instances), jobs, w.String(), want)
	}

	bad := []struct {
		edit func(*DataGenCommand)
		want string
	}{
		{func(o *DataGenCommand) { o.Out = "" }, "data gen: --out DIR is required"},
		{func(o *DataGenCommand) { o.Format = "xlsx" }, "xlsx"},
		{func(o *DataGenCommand) { o.Split = "a/b" }, `--split "a/b": use letters, digits`},
		{func(o *DataGenCommand) { o.Overrides = []string{"no.such=1"} }, "no.such"},
		{func(o *DataGenCommand) {}, out}, // out exists and is not empty
	}
	for _, b := range bad {
		o := o
		b.edit(&o)
		var w strings.Builder
		if err := RunDataGenCommand(ctx, o, &w); err == nil || !strings.Contains(err.Error(), b.want) || w.Len() != 0 {
			t.Errorf("%+v: %v (printed %q), want %q", o, err, w.String(), b.want)
		}
	}
}

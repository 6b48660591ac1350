package experiment

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
)

// dataGen runs RunDataGenCommand (evogp data gen) with the CLI's defaults
// for what o leaves empty (parquet, split train) and returns what it
// printed.
func dataGen(o DataGenCommand) (string, error) {
	if o.Format == "" {
		o.Format = datasets.FormatParquet
	}
	if o.Split == "" {
		o.Split = "train"
	}
	var w strings.Builder
	err := RunDataGenCommand(context.Background(), o, &w)
	return w.String(), err
}

// dataDescribe runs RunDataDescribeCommand (evogp data describe) and
// returns what it printed.
func dataDescribe(o DataDescribeCommand) (string, error) {
	var w, errw strings.Builder
	err := RunDataDescribeCommand(context.Background(), o, &w, &errw)
	return w.String(), err
}

func TestDataGenDescribeSmoke(t *testing.T) {
	for _, format := range []string{"parquet", "csv"} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "data", "train")
			stdout, err := dataGen(DataGenCommand{Config: "smoke", Seed: 3, SeedGiven: true, Format: format, Out: out})
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := configs.Load("smoke")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(stdout, "wrote 4 instances") || !strings.Contains(stdout, out) || strings.Count(stdout, "\n") != 1 {
				t.Fatalf("gen printed %q", stdout)
			}
			ds, err := datasets.Read(out)
			if err != nil {
				t.Fatal(err)
			}
			// The files hold what the library generates for the recorded seeds.
			want, err := datasets.Generate(cfg.Generator.Settings(), datasets.SplitSeed(3, "train"), cfg.Data.Train)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ds.Instances, want) {
				t.Fatal("generated dataset differs from datasets.Generate with the recorded seed")
			}
			m := ds.Meta
			if m.Split != "train" || m.Seed == nil || *m.Seed != 3 || m.GenerateSeed == nil || *m.GenerateSeed != datasets.SplitSeed(3, "train") ||
				m.Config != "smoke" || m.Format != format || m.Generator == nil || !reflect.DeepEqual(*m.Generator, cfg.Generator.Settings()) {
				t.Fatalf("meta %+v", m)
			}

			table, err := dataDescribe(DataDescribeCommand{Args: []string{out}, Types: 3})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimRight(table, "\n"), "\n")
			// title, header, 4 instances, total
			if len(lines) != 7 || !strings.HasPrefix(lines[1], "instance") || !strings.HasPrefix(lines[6], "total") {
				t.Fatalf("describe table:\n%s", table)
			}
			for i, in := range ds.Instances {
				s := datasets.Describe(in)
				if !strings.HasPrefix(lines[2+i], in.Name) || !strings.Contains(lines[2+i], s.Types[0].String()) {
					t.Errorf("row %d %q does not describe %s", i, lines[2+i], in.Name)
				}
			}
			// Columns are aligned: every row has the same width up to the
			// last column (the type list).
			col := strings.Index(lines[1], "top job types")
			for _, l := range lines[2:] {
				if len(l) < col || l[col-2:col] != "  " || l[col-3] == ' ' {
					t.Errorf("misaligned row %q", l)
				}
			}

			js, err := dataDescribe(DataDescribeCommand{Args: []string{out}, JSON: true, Types: 3})
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(strings.NewReader(js))
			for _, in := range ds.Instances {
				var got map[string]any
				if err := dec.Decode(&got); err != nil {
					t.Fatal(err)
				}
				s := datasets.Describe(in)
				if got["instance"] != in.Name || got["jobs"] != float64(s.Jobs) || got["gpu_hours"] != s.GPUHours || got["offered_load"] != s.Load {
					t.Errorf("json %v, want %+v", got, s)
				}
			}
			if dec.More() {
				t.Error("more JSON objects than instances")
			}
		})
	}
}

func TestDataGenSplitsAndOverrides(t *testing.T) {
	dir := t.TempDir()
	train, test := filepath.Join(dir, "train"), filepath.Join(dir, "test")
	if _, err := dataGen(DataGenCommand{Config: "smoke", Out: train}); err != nil {
		t.Fatal(err)
	}
	if _, err := dataGen(DataGenCommand{Config: "smoke", Split: "test", Instances: 2, InstancesGiven: true, Out: test,
		Overrides: []string{"generator.clusters=5,5", "generator.nodes=3,3"}}); err != nil {
		t.Fatal(err)
	}
	a, err := datasets.Read(train)
	if err != nil {
		t.Fatal(err)
	}
	b, err := datasets.Read(test)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Instances) != 2 || b.Meta.Split != "test" || b.Meta.Options["overrides"] != "generator.clusters=5,5 generator.nodes=3,3" {
		t.Fatalf("test split meta %+v", b.Meta)
	}
	for _, in := range b.Instances {
		if len(in.Clusters) != 5 || in.Clusters[0].Nodes != 3 {
			t.Fatalf("overrides not applied: %+v", in.Clusters)
		}
	}
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Instances) != cfg.Data.Train || *a.Meta.Seed != cfg.Seed {
		t.Fatalf("defaults: %d instances, seed %d; want data.train = %d and the config seed %d", len(a.Instances), *a.Meta.Seed, cfg.Data.Train, cfg.Seed)
	}
	if *a.Meta.Seed != *b.Meta.Seed || *a.Meta.GenerateSeed == *b.Meta.GenerateSeed {
		t.Fatal("train and test from one config seed must use different generator streams")
	}
}

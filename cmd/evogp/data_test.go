package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
)

func TestDataGenDescribeSmoke(t *testing.T) {
	for _, format := range []string{"parquet", "csv"} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "data", "train")
			stdout, _, err := runApp(t, "data", "gen", "--config", "smoke", "--seed", "3", "--format", format, "--out", out)
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

			table, _, err := runApp(t, "data", "describe", out)
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

			js, _, err := runApp(t, "data", "describe", "--json", out)
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
	if _, _, err := runApp(t, "data", "gen", "--config", "smoke", "--out", train); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runApp(t, "data", "gen", "--config", "smoke", "--split", "test", "--instances", "2", "--out", test,
		"generator.clusters=5,5", "generator.nodes=3,3"); err != nil {
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

// TestDataBadInput: every bad input is an error and leaves no output.
func TestDataBadInput(t *testing.T) {
	dir := t.TempDir()
	badYAML := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badYAML, []byte("generator:\n  nodez: [1, 2]\n"), 0o644)
	rangeYAML := filepath.Join(dir, "range.yaml")
	os.WriteFile(rangeYAML, []byte("generator:\n  nodes: [5, 2]\n"), 0o644)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown key in YAML file", []string{"--config", badYAML}, "nodez"},
		{"out-of-range YAML value", []string{"--config", rangeYAML}, "generator.nodes"},
		{"unknown embedded config", []string{"--config", "nosuch"}, `no embedded config "nosuch"`},
		{"unknown override key", []string{"--config", "smoke", "generator.nodez=3"}, `unknown key "generator.nodez"`},
		{"bad override value", []string{"--config", "smoke", "generator.gpus_per_node=0"}, "generator.gpus_per_node"},
		{"bad format", []string{"--config", "smoke", "--format", "xlsx"}, `--format "xlsx"`},
		{"zero instances", []string{"--config", "smoke", "--instances", "0"}, "--instances 0"},
		{"split without size", []string{"--config", "smoke", "--split", "holdout"}, "pass --instances"},
		{"bad split name", []string{"--config", "smoke", "--split", "../x", "--instances", "1"}, "--split"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, _, err := runApp(t, append([]string{"data", "gen", "--out", out}, c.args...)...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("output directory left behind")
			}
		})
	}

	t.Run("missing --out", func(t *testing.T) {
		if _, _, err := runApp(t, "data", "gen", "--config", "smoke"); err == nil {
			t.Fatal("accepted")
		}
	})
	t.Run("non-empty --out", func(t *testing.T) {
		out := t.TempDir()
		os.WriteFile(filepath.Join(out, "keep"), []byte("k"), 0o644)
		_, _, err := runApp(t, "data", "gen", "--config", "smoke", "--out", out)
		if err == nil || !strings.Contains(err.Error(), "not empty") {
			t.Fatalf("got %v", err)
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 1 {
			t.Fatalf("output directory changed: %v", entries)
		}
	})

	// Describe answers each bad dataset with the reader's error.
	bad := []struct {
		name, clusters, jobs, want string
	}{
		{"zero duration", "instance,cluster,nodes,gpus_per_node\na,0,1,8\n",
			"instance,job,arrival,cluster,duration,workers,gpus,priority\na,0,0,0,0,1,1,1\n", "jobs.csv: row 1 (line 2): instance \"a\": job 0: duration = 0"},
		{"missing column", "instance,cluster,nodes\na,0,1\n", "", "clusters.csv: line 1: missing column \"gpus_per_node\""},
		{"empty", "instance,cluster,nodes,gpus_per_node\n", "", "empty dataset"},
	}
	for _, b := range bad {
		t.Run("describe "+b.name, func(t *testing.T) {
			d := t.TempDir()
			os.WriteFile(filepath.Join(d, "clusters.csv"), []byte(b.clusters), 0o644)
			os.WriteFile(filepath.Join(d, "jobs.csv"), []byte(b.jobs), 0o644)
			stdout, _, err := runApp(t, "data", "describe", d)
			if err == nil || !strings.Contains(err.Error(), b.want) {
				t.Fatalf("got %v, want %q", err, b.want)
			}
			if stdout != "" {
				t.Fatalf("printed %q on error", stdout)
			}
		})
	}
	t.Run("describe without a directory", func(t *testing.T) {
		if _, _, err := runApp(t, "data", "describe"); err == nil {
			t.Fatal("accepted")
		}
	})
}

func TestDataHelp(t *testing.T) {
	for _, args := range [][]string{{"data", "--help"}, {"data", "gen", "--help"}, {"data", "describe", "--help"}} {
		stdout, _, err := runApp(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stdout, "evogp data") {
			t.Errorf("%v: help has no example:\n%s", args, stdout)
		}
	}
}

package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

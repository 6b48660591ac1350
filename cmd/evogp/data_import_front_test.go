package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/tracefiles"
)

// TestFrontConfigCommands runs the three `evogp data import philly`
// commands of configs/front.yaml's header (trace and output under the
// test's paths) and checks they produce the data dirs the config reads,
// with its instance counts: training and validation overlapping 84 h
// windows each sized by its own offered load (node counts differ between
// instances, none above load 1.25), test one size for the split.
func TestFrontConfigCommands(t *testing.T) {
	in := tracefiles.Philly(t, "philly.csv")
	text, err := os.ReadFile(filepath.Join("..", "..", "configs", "front.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	var cmd strings.Builder
	for _, line := range strings.Split(string(text), "\n") {
		l := strings.TrimSpace(strings.TrimPrefix(line, "#"))
		if strings.HasPrefix(l, "evogp data import philly") || cmd.Len() > 0 {
			cmd.WriteString(strings.TrimSuffix(l, "\\") + " ")
			if !strings.HasSuffix(l, "\\") {
				cmds = append(cmds, strings.Fields(cmd.String())[1:])
				cmd.Reset()
			}
		}
	}
	if len(cmds) != 3 {
		t.Fatalf("%d `evogp data import philly` commands in front.yaml's header, want 3", len(cmds))
	}
	cfg, err := configs.Load("front")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, args := range cmds {
		for i := range args {
			switch {
			case i > 0 && args[i-1] == "--in":
				args[i] = in
			case i > 0 && args[i-1] == "--out":
				args[i] = filepath.Join(root, args[i])
			}
		}
		if _, _, err := runApp(t, args...); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	for _, d := range []struct {
		dir         string
		size        int
		perInstance bool
	}{{cfg.Data.TrainDir, cfg.Data.Train, true}, {cfg.Data.ValDir, cfg.Data.Validation, true}, {cfg.Data.TestDir, cfg.Data.Test, false}} {
		ds, err := datasets.Read(filepath.Join(root, d.dir))
		if err != nil {
			t.Fatal(err)
		}
		if len(ds.Instances) != d.size || d.size < 6 {
			t.Errorf("%s: %d instances, config says %d (issue 42 wants at least 6)", d.dir, len(ds.Instances), d.size)
		}
		sizes := map[int]bool{}
		for _, inst := range ds.Instances {
			if len(inst.Clusters) != 1 {
				t.Fatalf("%s %s: %d clusters, want one", d.dir, inst.Name, len(inst.Clusters))
			}
			sizes[inst.Clusters[0].Nodes] = true
		}
		if d.perInstance != (len(sizes) > 1) || ds.Meta.Options["capacity"] != map[bool]string{true: "load:1.25 per instance", false: "load:1.25"}[d.perInstance] {
			t.Errorf("%s: %d cluster sizes, capacity %q", d.dir, len(sizes), ds.Meta.Options["capacity"])
		}
	}
}

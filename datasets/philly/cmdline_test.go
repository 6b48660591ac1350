package philly

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseCapacity(t *testing.T) {
	good := []struct {
		in   string
		want Capacity
	}{
		{"helios", Capacity{Rule: CapacityHelios}},
		{"  helios ", Capacity{Rule: CapacityHelios}},
		{"load:0.8", Capacity{Rule: CapacityLoad, Load: 0.8}},
		{"load:1e6", Capacity{Rule: CapacityLoad, Load: 1e6}},
		{"a=1", Capacity{Rule: CapacityNodes, Nodes: map[string]int{"a": 1}}},
		{"a=3, b = 40 ,c=2", Capacity{Rule: CapacityNodes, Nodes: map[string]int{"a": 3, "b": 40, "c": 2}}},
	}
	for _, c := range good {
		got, err := ParseCapacity(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseCapacity(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	bad := map[string]string{
		"":                       `--capacity "": want helios, load:RHO or VC=N,VC=N`,
		"lots":                   `--capacity "lots": want helios, load:RHO or VC=N,VC=N`,
		"Helios":                 `want helios`,
		"load:":                  `--capacity "load:": want load:RHO with RHO > 0, e.g. load:0.8`,
		"load:x":                 `want load:RHO`,
		"load:0":                 `want load:RHO`,
		"load:-1":                `want load:RHO`,
		"load:NaN":               `want load:RHO`,
		"load:Inf":               `want load:RHO`,
		"load:1e7":               `want load:RHO`,
		"a=0":                    `--capacity "a=0": "a=0" is not VC=N with N ≥ 1`,
		"a=1,b":                  `"b" is not VC=N`,
		"a=1,b=x":                `"b=x" is not VC=N`,
		"a=1,b=-2":               `"b=-2" is not VC=N`,
		"a=1,a=2":                `--capacity: VC a given twice`,
		"a=1, a =2":              `VC a given twice`,
		"a=1,,b=2":               `"" is not VC=N`,
		"a=99999999999999999999": `is not VC=N`,
	}
	for in, want := range bad {
		if _, err := ParseCapacity(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCapacity(%q): error %v, want one containing %q", in, err, want)
		}
	}
}

// FuzzParseCapacity: the parser never panics, and what it accepts is one
// rule with its fields in range: a load in (0, 1e6], or node counts ≥ 1
// whose VCs, joined back as VC=N, parse to the same counts.
func FuzzParseCapacity(f *testing.F) {
	for _, s := range []string{"helios", "load:0.8", "load:1e6", "a=1,b=2", " a = 3 ", "a=1,a=2", "load:-0", "=1", "a=1,", "load:0x1p-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCapacity(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--capacity") {
				t.Fatalf("error %q does not name the flag", err)
			}
			return
		}
		switch c.Rule {
		case CapacityHelios:
			if c.Load != 0 || c.Nodes != nil {
				t.Fatalf("%q: helios with fields %+v", s, c)
			}
		case CapacityLoad:
			if !(c.Load > 0 && c.Load <= maxLoad) || c.Nodes != nil {
				t.Fatalf("%q: load rule %+v", s, c)
			}
		case CapacityNodes:
			if len(c.Nodes) == 0 || c.Load != 0 {
				t.Fatalf("%q: nodes rule %+v", s, c)
			}
			var parts []string
			for vc, n := range c.Nodes {
				if n < 1 || strings.TrimSpace(vc) != vc {
					t.Fatalf("%q: VC %q nodes %d", s, vc, n)
				}
				parts = append(parts, vc+"="+strconv.Itoa(n))
			}
			again, err := ParseCapacity(strings.Join(parts, ","))
			if err != nil || !maps.Equal(again.Nodes, c.Nodes) {
				t.Fatalf("%q: %v does not parse back: %+v, %v", s, c.Nodes, again, err)
			}
		default:
			t.Fatalf("%q: unknown rule %+v", s, c)
		}
	})
}

// vcFileDir writes a VC file beside a (not existing) trace and returns the
// trace's path.
func vcFileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, DefaultVCFile), []byte("vc,node num\na,4\nb,2\nc,8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "philly.csv")
}

// cmdline is a command line with the flag defaults of evogp data import
// philly and the named flags given.
func cmdline(in string, given ...string) CommandLine {
	set := map[string]bool{}
	for _, g := range given {
		set[g] = true
	}
	return CommandLine{In: in, Capacity: CapacityHelios, Span: DefaultSpan, GPUsPerNode: DefaultGPUsPerNode, Priority: DefaultPriority,
		Given: func(f string) bool { return set[f] }}
}

func TestCommandLineDefaults(t *testing.T) {
	in := vcFileDir(t)
	o, err := cmdline(in).Options()
	if err != nil {
		t.Fatal(err)
	}
	want := Options{
		Window:      Window{From: time.Date(2017, 10, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2017, 12, 1, 0, 0, 0, 0, time.UTC)},
		Span:        DefaultSpan,
		VCs:         []string{"a", "b", "c"},
		GPUsPerNode: 8, Priority: 1,
		Nodes:  map[string]int{"a": 4, "b": 2, "c": 8},
		Record: map[string]string{"capacity_flag": "helios", "vc_file": filepath.Join(filepath.Dir(in), DefaultVCFile)},
	}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", o, want)
	}
	// A single cluster of helios capacity is the sum of the kept VCs'.
	cl := cmdline(in, "vcs", "single-cluster")
	cl.VCs, cl.SingleCluster = "c, a", true
	if o, err = cl.Options(); err != nil || o.SingleNodes != 12 || o.Nodes != nil || !reflect.DeepEqual(o.VCs, []string{"c", "a"}) {
		t.Errorf("single helios: %+v, %v", o, err)
	}
}

func TestCommandLineSplitsAndCapacities(t *testing.T) {
	in := vcFileDir(t)
	cl := cmdline(in, "train", "test", "to", "vcs", "capacity")
	cl.Train, cl.Test, cl.To = "2017-10-05..2017-10-07", "2017-10-02..2017-10-04", "2017-10-09"
	cl.VCs, cl.Capacity = "b", "b=5"
	o, err := cl.Options()
	if err != nil {
		t.Fatal(err)
	}
	// The window spans the splits (earliest start), then --to replaces its end.
	if got := o.Window.String(); got != "2017-10-02..2017-10-09" {
		t.Errorf("window %s", got)
	}
	if len(o.Splits) != 2 || o.Splits[0].Name != "train" || o.Splits[1].Window.String() != "2017-10-02..2017-10-04" {
		t.Errorf("splits %+v", o.Splits)
	}
	if !reflect.DeepEqual(o.Nodes, map[string]int{"b": 5}) || o.Record["vc_file"] != "" {
		t.Errorf("explicit counts without the VC file: %+v %v", o.Nodes, o.Record)
	}
	// load:RHO with explicit VCs reads no VC file, even a missing one.
	cl = cmdline(filepath.Join(t.TempDir(), "x.csv"), "vcs", "capacity", "single-cluster")
	cl.VCs, cl.Capacity, cl.SingleCluster = "a,b", "load:0.5", true
	if o, err = cl.Options(); err != nil || o.Load != 0.5 || o.Nodes != nil || o.SingleNodes != 0 {
		t.Errorf("load: %+v, %v", o, err)
	}
	cl = cmdline(in, "single-cluster", "nodes")
	cl.SingleCluster, cl.Nodes = true, 100
	if o, err = cl.Options(); err != nil || o.SingleNodes != 100 || o.Record["capacity_flag"] != "nodes=100" {
		t.Errorf("--nodes: %+v, %v", o, err)
	}
}

func TestCommandLineErrors(t *testing.T) {
	in := vcFileDir(t)
	cases := []struct {
		name  string
		edit  func(*CommandLine)
		given []string
		want  string
	}{
		{"gpus per node", func(c *CommandLine) { c.GPUsPerNode = 0 }, nil, "--gpus-per-node 0: must be ≥ 1"},
		{"priority", func(c *CommandLine) { c.Priority = -1 }, nil, "--priority -1: must be ≥ 1"},
		{"scale", func(c *CommandLine) { c.Scale = 0 }, []string{"capacity-scale"}, "--capacity-scale 0: must be > 0"},
		{"split", func(c *CommandLine) { c.Validation = "2017-10-02" }, []string{"validation"}, "--validation: window"},
		{"from", func(c *CommandLine) { c.From = "bad" }, []string{"from"}, "--from: time"},
		{"to", func(c *CommandLine) { c.To = "bad" }, []string{"to"}, "--to: time"},
		{"order", func(c *CommandLine) { c.From, c.To = "2017-10-05", "2017-10-04" }, []string{"from", "to"},
			"--from 2017-10-05 00:00:00 is not before --to 2017-10-04 00:00:00"},
		{"vc file", func(c *CommandLine) { c.VCFile = filepath.Join(t.TempDir(), "none.csv") }, nil, "--vc-file: VC file: open"},
		{"unknown vc", func(c *CommandLine) { c.VCs = "a,z" }, []string{"vcs"}, "--capacity helios: VC z has no node count in"},
		{"nodes alone", func(c *CommandLine) { c.Nodes = 3 }, []string{"nodes"}, "--nodes is the node count of --single-cluster"},
		{"nodes and capacity", func(c *CommandLine) { c.SingleCluster, c.Nodes = true, 3 }, []string{"single-cluster", "nodes", "capacity"}, "give --nodes or --capacity, not both"},
		{"nodes 0", func(c *CommandLine) { c.SingleCluster, c.Nodes = true, 0 }, []string{"single-cluster", "nodes"}, "--nodes 0: must be ≥ 1"},
		{"single per-VC", func(c *CommandLine) { c.SingleCluster, c.Capacity = true, "a=1" }, []string{"single-cluster", "capacity"}, "give its size with --nodes N"},
		{"bad capacity", func(c *CommandLine) { c.Capacity = "load:x" }, []string{"capacity"}, "want load:RHO"},
	}
	for _, c := range cases {
		cl := cmdline(in, c.given...)
		c.edit(&cl)
		if _, err := cl.Options(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

package philly

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evogp/evogp/internal/tracefiles"
)

// instanceIDs lists the job ids of every instance by instance name.
func instanceIDs(sr SplitResult) map[string][]int64 {
	out := map[string][]int64{}
	for _, inst := range sr.Dataset.Instances {
		for _, j := range inst.Jobs {
			out[inst.Name] = append(out[inst.Name], j.ID)
		}
	}
	return out
}

// TestImportStrideHandCase: 24 h instances every 18 h over 2017-10-01..03.
// Starts 10-01 00:00, 10-01 18:00 and 10-02 12:00 (clipped at the window's
// end, which it reaches, so no fourth). Kept jobs (fixed nodes a 1, b 3):
// 0, 1, 2 on 10-01 00:00:05–10, 3 on 10-02 12:00:00, 24 on 10-02 23:59:59.
// Job 3 lies in the second and the third instance.
func TestImportStrideHandCase(t *testing.T) {
	o := syntheticOptions(t)
	o.Span, o.Stride = 24*time.Hour, 18*time.Hour
	res, err := Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	sr := res.Splits[0]
	want := map[string][]int64{
		"philly-2017-10-01":        {1, 2, 0},
		"philly-2017-10-01T180000": {3},
		"philly-2017-10-02T120000": {3, 24},
	}
	if got := instanceIDs(sr); !reflect.DeepEqual(got, want) {
		t.Errorf("instances %v, want %v", got, want)
	}
	if sr.Jobs != 6 || sr.EmptySpans != 0 || res.Counts.Kept != 5 {
		t.Errorf("jobs %d (want 6: job 3 twice), empty spans %d, kept %d", sr.Jobs, sr.EmptySpans, res.Counts.Kept)
	}
	second, third := sr.Dataset.Instances[1], sr.Dataset.Instances[2]
	if second.Jobs[0].Arrival != 18*3600 || third.Jobs[0].Arrival != 0 || third.Jobs[1].Arrival != 12*3600-1 {
		t.Errorf("arrivals must be relative to each instance's start: %+v %+v", second.Jobs, third.Jobs)
	}
	if m := sr.Dataset.Meta.Options; m["instance_stride"] != "18h0m0s" || m["instances"] != "3" {
		t.Errorf("meta %v", m)
	}

	// 12 h stride: starts 00:00, 12:00, 10-02 00:00 (reaches the end).
	// The second instance [10-01 12:00, 10-02 12:00) holds no job: an
	// empty span, not an instance.
	o.Stride = 12 * time.Hour
	if res, err = Import(strings.NewReader(synthetic), o); err != nil {
		t.Fatal(err)
	}
	want = map[string][]int64{"philly-2017-10-01": {1, 2, 0}, "philly-2017-10-02": {3, 24}}
	if got := instanceIDs(res.Splits[0]); !reflect.DeepEqual(got, want) || res.Splits[0].EmptySpans != 1 {
		t.Errorf("12 h stride: instances %v (want %v), empty spans %d (want 1)", got, want, res.Splits[0].EmptySpans)
	}
}

// TestImportStrideEqualsSpanIsTheDefault: a stride equal to the span is
// the consecutive cut, byte for byte (no instance_stride in the meta).
func TestImportStrideEqualsSpanIsTheDefault(t *testing.T) {
	o := syntheticOptions(t)
	o.Span = 7 * time.Hour
	def, err := Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Stride = o.Span
	same, err := Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(def, same) {
		t.Errorf("stride = span differs from the default:\n%+v\n%+v", def, same)
	}
	if _, ok := def.Splits[0].Dataset.Meta.Options["instance_stride"]; ok {
		t.Error("the default import must not record an instance stride")
	}
}

// TestImportStrideRealWeek checks overlapping instances of the real trace
// against a direct reading of one whole-window import: an instance
// starting at s holds exactly the jobs submitted in [s, s+span) ∩ window,
// with arrival = submit − s.
func TestImportStrideRealWeek(t *testing.T) {
	path := tracefiles.Philly(t, "philly.csv")
	o := heliosOptions(t, mustWindow(t, "2017-10-02..2017-10-09"))
	o.SingleCluster, o.Nodes, o.Load = true, nil, 1.25
	o.Span = o.Window.To.Sub(o.Window.From)
	whole, err := ImportFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	type sub struct{ id, at int64 } // at: seconds since the window's start
	var all []sub
	for _, j := range whole.Splits[0].Dataset.Instances[0].Jobs {
		all = append(all, sub{j.ID, j.Arrival})
	}
	o.Span, o.Stride = 84*time.Hour, 24*time.Hour
	res, err := ImportFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	// Starts at day 0..4; the start of day 4 + 84 h reaches the window's end.
	insts := res.Splits[0].Dataset.Instances
	if len(insts) != 5 || res.Splits[0].EmptySpans != 0 {
		t.Fatalf("%d instances, %d empty spans; want 5, 0", len(insts), res.Splits[0].EmptySpans)
	}
	week := int64(7 * 86400)
	for k, inst := range insts {
		s := int64(k) * 86400
		var want, got []sub
		for _, j := range all {
			if j.at >= s && j.at < min(s+84*3600, week) {
				want = append(want, sub{j.id, j.at - s})
			}
		}
		for _, j := range inst.Jobs {
			got = append(got, sub{j.ID, j.Arrival})
		}
		cmp := func(a, b sub) int { return int(a.id - b.id) }
		slices.SortFunc(want, cmp)
		slices.SortFunc(got, cmp)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("instance %d (%s): %d jobs, want %d", k, inst.Name, len(got), len(want))
		}
	}
}

// TestImportPerInstanceCapacity: one day per instance, each sized by its
// own jobs. ρ·G·T = 1e-5 · 8 · 86400 = 6.912 GPU·s per node.
// Day 1: a jobs 0 (1 × 100 s) and 22 (16 × 1 s, 2 nodes) = 116 GPU·s →
// ⌈16.78⌉ = 17; b jobs 1 (2 × 1), 2 (16 × 50), 23 (32 × 1, 4 nodes) =
// 834 → ⌈120.66⌉ = 121. Day 2: a no job → 1; b jobs 3 (12 × 7) and 24
// (17 × 1, 3 nodes) = 101 → ⌈14.61⌉ = 15. Every job fits its instance.
func TestImportPerInstanceCapacity(t *testing.T) {
	o := syntheticOptions(t)
	o.Nodes, o.Load, o.PerInstance = nil, 1e-5, true
	res, err := Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	nodes := func() [][]int {
		var out [][]int
		for _, inst := range res.Splits[0].Dataset.Instances {
			var n []int
			for _, c := range inst.Clusters {
				n = append(n, c.Nodes)
			}
			out = append(out, n)
		}
		return out
	}
	if got := nodes(); !reflect.DeepEqual(got, [][]int{{17, 121}, {1, 15}}) {
		t.Errorf("nodes per instance %v, want [[17 121] [1 15]]", got)
	}
	if res.Counts.Kept != 7 || res.Counts.Skipped[DoesNotFit] != 0 {
		t.Errorf("every job fits its own instance: %+v", res.Counts)
	}
	c0, c1 := res.Clusters[0], res.Clusters[1]
	if c0.Rule != "load per instance" || c0.MinNodes != 1 || c0.Nodes != 17 || c1.MinNodes != 15 || c1.Nodes != 121 {
		t.Errorf("summary %+v %+v", c0, c1)
	}
	if want := 834 / (121 * 8 * 86400.0); c1.Load != want || c0.Load > o.Load {
		t.Errorf("highest instance load %v (want %v), %v", c1.Load, want, c0.Load)
	}
	m := res.Splits[0].Dataset.Meta.Options
	if m["capacity"] != "load:1e-05 per instance" || m["cluster.0.min_nodes"] != "1" || m["cluster.1.nodes"] != "121" {
		t.Errorf("meta %v", m)
	}
	var b strings.Builder
	if err := res.WriteReport(&b, "synthetic.csv", "out", "csv", 8); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "15–121") || !strings.Contains(b.String(), "120–968") {
		t.Errorf("the report must give the range of node and GPU counts:\n%s", b.String())
	}
	// A lax target: what each instance's largest job needs.
	o.Load = 100
	if res, err = Import(strings.NewReader(synthetic), o); err != nil {
		t.Fatal(err)
	}
	if got := nodes(); !reflect.DeepEqual(got, [][]int{{2, 4}, {1, 3}}) {
		t.Errorf("lax target: nodes per instance %v, want [[2 4] [1 3]]", got)
	}
}

func TestStrideAndPerInstanceErrors(t *testing.T) {
	for name, c := range map[string]struct {
		mod  func(*Options)
		want string
	}{
		"stride above span":  {func(o *Options) { o.Span, o.Stride = time.Hour, 2*time.Hour }, "instance stride = 2h0m0s"},
		"stride not seconds": {func(o *Options) { o.Stride = 1500 * time.Millisecond }, "whole seconds"},
		"negative stride":    {func(o *Options) { o.Stride = -time.Hour }, "at least 1s"},
		"per instance fixed": {func(o *Options) { o.PerInstance = true }, "needs a load target"},
	} {
		o := syntheticOptions(t)
		c.mod(&o)
		if _, err := Import(strings.NewReader(synthetic), o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
	in := vcFileDir(t)
	for _, c := range []struct {
		name  string
		edit  func(*CommandLine)
		given []string
		want  string
	}{
		{"stride 0", func(c *CommandLine) { c.Stride = 0 }, []string{"instance-stride"}, "--instance-stride 0s: must be > 0"},
		{"per instance helios", func(c *CommandLine) { c.PerInstance = true }, []string{"capacity-per-instance"}, "give --capacity load:RHO, not \"helios\""},
		{"per instance nodes", func(c *CommandLine) { c.PerInstance, c.SingleCluster, c.Nodes = true, true, 4 },
			[]string{"capacity-per-instance", "single-cluster", "nodes"}, "give --capacity load:RHO, not --nodes"},
	} {
		cl := cmdline(in, c.given...)
		c.edit(&cl)
		if _, err := cl.Options(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	cl := cmdline(in, "instance-stride", "capacity-per-instance", "capacity", "single-cluster")
	cl.Stride, cl.PerInstance, cl.Capacity, cl.SingleCluster = 12*time.Hour, true, "load:1.25", true
	if o, err := cl.Options(); err != nil || o.Stride != 12*time.Hour || !o.PerInstance || o.Load != 1.25 {
		t.Errorf("stride and per instance: %+v, %v", o, err)
	}
}

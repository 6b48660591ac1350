package philly

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Defaults of the command line (evogp data import philly): the two months
// (October and November 2017) the Helios study and the trace notes use, and
// the Helios VC file beside the trace.
const (
	DefaultFrom   = "2017-10-01"
	DefaultTo     = "2017-12-01"
	DefaultVCFile = "helios_philly_vc.csv"
)

// Capacity rules of [ParseCapacity].
const (
	CapacityHelios = "helios" // the VC file's node counts
	CapacityLoad   = "load"   // derived from the offered load (Options.Load)
	CapacityNodes  = "nodes"  // explicit VC=N counts (Options.Nodes)
)

// maxLoad bounds the ρ of load:RHO (a larger target is surely a typo, and
// keeps the derived node counts away from 0).
const maxLoad = 1e6

// Capacity is a parsed capacity rule: Rule is CapacityHelios,
// CapacityLoad (with Load = ρ) or CapacityNodes (with Nodes, VC → N).
type Capacity struct {
	Rule  string
	Load  float64
	Nodes map[string]int
}

// ParseCapacity reads the capacity syntax of the command line:
//
//	helios             the VC file's node counts
//	load:RHO           per VC the smallest node count with offered load ≤ RHO, 0 < RHO ≤ 1e6
//	VC=N,VC=N,...      explicit node counts, N ≥ 1, each VC once
//
// Surrounding spaces are ignored. Errors name the flag (--capacity) and the
// part that is wrong.
func ParseCapacity(s string) (Capacity, error) {
	capacity := strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(capacity, "load:"):
		rho, err := strconv.ParseFloat(strings.TrimPrefix(capacity, "load:"), 64)
		if err != nil || !(rho > 0) || rho > maxLoad {
			return Capacity{}, fmt.Errorf("--capacity %q: want load:RHO with RHO > 0, e.g. load:0.8", capacity)
		}
		return Capacity{Rule: CapacityLoad, Load: rho}, nil
	case capacity == CapacityHelios:
		return Capacity{Rule: CapacityHelios}, nil
	case strings.Contains(capacity, "="):
		nodes := map[string]int{}
		for _, part := range strings.Split(capacity, ",") {
			vc, n, ok := strings.Cut(strings.TrimSpace(part), "=")
			count, err := strconv.Atoi(strings.TrimSpace(n))
			if !ok || err != nil || count < 1 {
				return Capacity{}, fmt.Errorf("--capacity %q: %q is not VC=N with N ≥ 1", capacity, part)
			}
			vc = strings.TrimSpace(vc)
			if _, dup := nodes[vc]; dup {
				return Capacity{}, fmt.Errorf("--capacity: VC %s given twice", vc)
			}
			nodes[vc] = count
		}
		return Capacity{Rule: CapacityNodes, Nodes: nodes}, nil
	}
	return Capacity{}, fmt.Errorf("--capacity %q: want helios, load:RHO or VC=N,VC=N", capacity)
}

// CommandLine holds the flags of `evogp data import philly` as the user
// typed them; [CommandLine.Options] turns them into import [Options].
// Given reports whether a flag (by its name without dashes: "from",
// "capacity", "train", ...) was given; a flag not given takes its default.
type CommandLine struct {
	In                      string // the trace CSV; the VC file defaults to DefaultVCFile beside it
	VCFile                  string // "" = DefaultVCFile beside In
	From, To                string // window ends (ParseTime); defaults DefaultFrom, DefaultTo or the splits' extent
	Train, Validation, Test string // split windows FROM..TO (ParseWindow), used when given
	VCs                     string // comma-separated VCs to keep, in cluster order (default: the VC file's)
	Capacity                string // ParseCapacity's syntax (default helios)
	Scale                   float64
	Span                    time.Duration
	Stride                  time.Duration // the instance stride; 0 or not given: Span
	PerInstance             bool          // size every instance by its own offered load (load:RHO only)
	GPUsPerNode, Priority   int
	SingleCluster           bool
	Nodes                   int // the single cluster's node count
	Given                   func(flag string) bool
}

// Options checks the command line and returns the import options. It reads
// the VC file when the VCs or capacities come from it. The ranges of the
// options are checked by Import; Options refuses only what Import cannot
// tell from a default (an explicit 0 for --gpus-per-node, --priority or
// --capacity-scale) and flag combinations that make no sense.
func (cl CommandLine) Options() (Options, error) {
	given := cl.Given
	if given == nil {
		given = func(string) bool { return false }
	}
	o := Options{
		Span:          cl.Span,
		PerInstance:   cl.PerInstance,
		GPUsPerNode:   cl.GPUsPerNode,
		SingleCluster: cl.SingleCluster,
		Scale:         cl.Scale,
		Priority:      cl.Priority,
		Record:        map[string]string{},
	}
	if o.GPUsPerNode < 1 {
		return o, fmt.Errorf("--gpus-per-node %d: must be ≥ 1", o.GPUsPerNode)
	}
	if o.Priority < 1 {
		return o, fmt.Errorf("--priority %d: must be ≥ 1", o.Priority)
	}
	if given("instance-stride") {
		if cl.Stride <= 0 {
			return o, fmt.Errorf("--instance-stride %v: must be > 0", cl.Stride)
		}
		o.Stride = cl.Stride
	}
	if given("capacity-scale") && !(o.Scale > 0) {
		return o, fmt.Errorf("--capacity-scale %v: must be > 0", o.Scale)
	}
	if err := cl.window(&o, given); err != nil {
		return o, err
	}
	capacity := strings.TrimSpace(cl.Capacity)
	o.Record["capacity_flag"] = capacity
	var vcFile []VC
	if !given("vcs") || capacity == CapacityHelios {
		path := cl.VCFile
		if path == "" {
			path = filepath.Join(filepath.Dir(cl.In), DefaultVCFile)
		}
		var err error
		if vcFile, err = ReadVCFile(path); err != nil {
			return o, fmt.Errorf("--vc-file: %w", err)
		}
		o.Record["vc_file"] = path
	}
	if given("vcs") {
		for _, vc := range strings.Split(cl.VCs, ",") {
			o.VCs = append(o.VCs, strings.TrimSpace(vc))
		}
	} else {
		for _, vc := range vcFile {
			o.VCs = append(o.VCs, vc.ID)
		}
	}
	if given("nodes") && !o.SingleCluster {
		return o, errors.New("--nodes is the node count of --single-cluster; for one cluster per VC use --capacity")
	}
	if o.SingleCluster && given("nodes") {
		if given("capacity") {
			return o, errors.New("--single-cluster: give --nodes or --capacity, not both")
		}
		if o.PerInstance {
			return o, errors.New("--capacity-per-instance sizes each instance by its offered load: give --capacity load:RHO, not --nodes")
		}
		o.SingleNodes = cl.Nodes
		if o.SingleNodes < 1 {
			return o, fmt.Errorf("--nodes %d: must be ≥ 1", o.SingleNodes)
		}
		o.Record["capacity_flag"] = "nodes=" + strconv.Itoa(o.SingleNodes)
		return o, nil
	}
	c, err := ParseCapacity(capacity)
	if err != nil {
		return o, err
	}
	if o.PerInstance && c.Rule != CapacityLoad {
		return o, fmt.Errorf("--capacity-per-instance sizes each instance by its offered load: give --capacity load:RHO, not %q", capacity)
	}
	switch c.Rule {
	case CapacityLoad:
		o.Load = c.Load
	case CapacityHelios:
		helios := make(map[string]int, len(vcFile))
		for _, vc := range vcFile {
			helios[vc.ID] = vc.Nodes
		}
		o.Nodes = make(map[string]int, len(o.VCs))
		for _, vc := range o.VCs {
			n, ok := helios[vc]
			if !ok {
				return o, fmt.Errorf("--capacity helios: VC %s has no node count in %s; use --capacity VC=N,... or load:RHO", vc, o.Record["vc_file"])
			}
			o.Nodes[vc] = n
			o.SingleNodes += n
		}
		if o.SingleCluster {
			o.Nodes = nil
		} else {
			o.SingleNodes = 0
		}
	case CapacityNodes:
		if o.SingleCluster {
			return o, errors.New("--single-cluster: give its size with --nodes N, not per-VC counts")
		}
		o.Nodes = c.Nodes
	}
	return o, nil
}

// window sets o's splits and import window: the splits' extent (or the
// defaults without splits), each end replaced by --from and --to when given.
func (cl CommandLine) window(o *Options, given func(string) bool) error {
	for _, s := range []struct{ name, window string }{{"train", cl.Train}, {"validation", cl.Validation}, {"test", cl.Test}} {
		if !given(s.name) {
			continue
		}
		w, err := ParseWindow(s.window)
		if err != nil {
			return fmt.Errorf("--%s: %w", s.name, err)
		}
		o.Splits = append(o.Splits, Split{Name: s.name, Window: w})
	}
	var err error
	if len(o.Splits) > 0 {
		first, last := o.Splits[0].Window.From, o.Splits[0].Window.To
		for _, s := range o.Splits[1:] {
			if s.Window.From.Before(first) {
				first = s.Window.From
			}
			if s.Window.To.After(last) {
				last = s.Window.To
			}
		}
		o.Window = Window{From: first, To: last}
	} else {
		if o.Window.From, err = ParseTime(DefaultFrom); err != nil {
			return err
		}
		if o.Window.To, err = ParseTime(DefaultTo); err != nil {
			return err
		}
	}
	if given("from") {
		if o.Window.From, err = ParseTime(cl.From); err != nil {
			return fmt.Errorf("--from: %w", err)
		}
	}
	if given("to") {
		if o.Window.To, err = ParseTime(cl.To); err != nil {
			return fmt.Errorf("--to: %w", err)
		}
	}
	if !o.Window.From.Before(o.Window.To) {
		return fmt.Errorf("--from %s is not before --to %s", o.Window.From.Format(time.DateTime), o.Window.To.Format(time.DateTime))
	}
	return nil
}

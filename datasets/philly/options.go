package philly

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// TimeLayout is the layout of the trace's timestamp column (UTC).
const TimeLayout = "2006-01-02 15:04:05"

// Defaults of the import options.
const (
	DefaultGPUsPerNode = 8
	DefaultPriority    = 1
	DefaultSpan        = 24 * time.Hour
)

// maxCount bounds node and GPU counts so that ⌊G/w⌋·N and Σ g cannot
// overflow; it equals the bound datasets.Read accepts.
const maxCount = int64(1)<<31 - 1

// maxSeconds bounds durations (2^53 s, exact as float64; datasets.Read
// accepts nothing larger).
const maxSeconds = int64(1) << 53

// Window is the half-open interval [From, To) of submit times.
type Window struct {
	From, To time.Time
}

// Contains reports whether t lies in [From, To).
func (w Window) Contains(t time.Time) bool { return !t.Before(w.From) && t.Before(w.To) }

// String renders the window as From..To, dates alone when both ends are at
// midnight UTC; ParseWindow reads it back.
func (w Window) String() string { return formatTime(w.From) + ".." + formatTime(w.To) }

func formatTime(t time.Time) string {
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format("2006-01-02T15:04:05Z")
}

// ParseTime reads a window end: a date (2017-10-01, midnight UTC), the
// trace's own layout (2017-10-01 06:00:00, UTC) or RFC 3339.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.DateOnly, TimeLayout, time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q: want YYYY-MM-DD, YYYY-MM-DD HH:MM:SS (UTC) or RFC 3339", s)
}

// ParseWindow reads "FROM..TO" (each end as ParseTime reads it); FROM must
// be before TO.
func ParseWindow(s string) (Window, error) {
	a, b, ok := strings.Cut(s, "..")
	if !ok {
		return Window{}, fmt.Errorf("window %q: want FROM..TO, e.g. 2017-10-01..2017-10-15", s)
	}
	from, err := ParseTime(a)
	if err != nil {
		return Window{}, fmt.Errorf("window %q: %w", s, err)
	}
	to, err := ParseTime(b)
	if err != nil {
		return Window{}, fmt.Errorf("window %q: %w", s, err)
	}
	w := Window{From: from, To: to}
	if err := w.check(); err != nil {
		return Window{}, fmt.Errorf("window %q: %w", s, err)
	}
	return w, nil
}

func (w Window) check() error {
	if !w.From.Before(w.To) {
		return fmt.Errorf("start %s is not before end %s", formatTime(w.From), formatTime(w.To))
	}
	if w.From.Nanosecond() != 0 || w.To.Nanosecond() != 0 {
		return errors.New("ends must be whole seconds")
	}
	return nil
}

// Split is a named window whose instances form one dataset (train,
// validation, test, …).
type Split struct {
	Name   string
	Window Window
}

// Options control an import; see the package documentation for the rules.
// Zero values of GPUsPerNode, Priority and Span mean their defaults.
type Options struct {
	// Name names the input in errors and dataset.yaml (a file path).
	Name string
	// Window keeps rows whose submit time lies in [From, To). Required.
	Window Window
	// Splits, when non-empty, produce one dataset each from their windows,
	// which must lie inside Window and not overlap. Empty: one dataset
	// from Window.
	Splits []Split
	// Span is the length of one instance (24h: one instance per day).
	// Whole seconds, ≥ 1 s.
	Span time.Duration
	// Stride is the distance between the starts of consecutive instances
	// (0: Span, consecutive instances). Whole seconds, 1 s ≤ Stride ≤
	// Span; below Span the instances overlap and a job belongs to every
	// instance whose span holds its submit time.
	Stride time.Duration
	// VCs are the virtual clusters kept, in cluster order. Required.
	VCs []string
	// GPUsPerNode is G for every cluster.
	GPUsPerNode int
	// SingleCluster merges all kept VCs into cluster 0.
	SingleCluster bool
	// Nodes gives the fixed node count of every kept VC (multi-cluster,
	// Load = 0). Entries for VCs that are not kept are errors.
	Nodes map[string]int
	// SingleNodes is the fixed node count of the single cluster
	// (SingleCluster, Load = 0).
	SingleNodes int
	// Scale, when > 0, scales the fixed node counts to ⌈N·Scale⌉ and raises
	// each to what its largest kept job needs.
	Scale float64
	// Load, when > 0, derives every node count from the offered load
	// instead of Nodes/SingleNodes (the smallest N with load ≤ Load).
	Load float64
	// PerInstance (with Load > 0) sizes every instance by its own offered
	// load over its own span instead of once over the import window, so
	// instances of one split may have different node counts.
	PerInstance bool
	// Priority is u for every job (the trace has none).
	Priority int
	// Record holds extra provenance copied into dataset.yaml's options
	// (e.g. the VC file and how the capacities were chosen). Its keys must
	// not clash with the keys Import writes.
	Record map[string]string
}

// normalised returns a copy with defaults filled in, or the first problem.
func (o Options) normalised() (Options, error) {
	if o.Name == "" {
		o.Name = "input"
	}
	if o.GPUsPerNode == 0 {
		o.GPUsPerNode = DefaultGPUsPerNode
	}
	if o.Priority == 0 {
		o.Priority = DefaultPriority
	}
	if o.Span == 0 {
		o.Span = DefaultSpan
	}
	if o.Stride == 0 {
		o.Stride = o.Span
	}
	if err := o.Window.check(); err != nil {
		return o, fmt.Errorf("window: %w", err)
	}
	switch {
	case o.GPUsPerNode < 1 || int64(o.GPUsPerNode) > maxCount:
		return o, fmt.Errorf("gpus per node = %d: must be in 1..%d", o.GPUsPerNode, maxCount)
	case o.Priority < 1 || int64(o.Priority) > maxCount:
		return o, fmt.Errorf("priority = %d: must be in 1..%d", o.Priority, maxCount)
	case o.Span < time.Second || o.Span%time.Second != 0:
		return o, fmt.Errorf("instance span = %v: must be whole seconds, at least 1s", o.Span)
	case o.Stride < time.Second || o.Stride%time.Second != 0 || o.Stride > o.Span:
		return o, fmt.Errorf("instance stride = %v: must be whole seconds, at least 1s and at most the instance span %v", o.Stride, o.Span)
	case o.PerInstance && !(o.Load > 0):
		return o, errors.New("capacity per instance sizes each instance by its offered load: it needs a load target")
	case len(o.VCs) == 0:
		return o, errors.New("no VCs to keep")
	case math.IsNaN(o.Scale) || math.IsInf(o.Scale, 0) || o.Scale < 0:
		return o, fmt.Errorf("capacity scale = %v: must be a finite number > 0 (or 0 for none)", o.Scale)
	case math.IsNaN(o.Load) || math.IsInf(o.Load, 0) || o.Load < 0:
		return o, fmt.Errorf("load = %v: must be a finite number > 0 (or 0 for fixed node counts)", o.Load)
	case o.Load > 0 && o.Scale > 0:
		return o, errors.New("a capacity scale applies to fixed node counts, not to load-derived ones")
	}
	seen := make(map[string]bool, len(o.VCs))
	for _, vc := range o.VCs {
		if vc == "" || strings.ContainsAny(vc, ",= \t\n") {
			return o, fmt.Errorf("VC %q: must be non-empty without commas, '=' or spaces", vc)
		}
		if seen[vc] {
			return o, fmt.Errorf("VC %q listed twice", vc)
		}
		seen[vc] = true
	}
	if err := o.checkCapacity(seen); err != nil {
		return o, err
	}
	names := make(map[string]bool, len(o.Splits))
	for i, s := range o.Splits {
		if s.Name == "" || names[s.Name] {
			return o, fmt.Errorf("split %d: name %q is empty or used twice", i, s.Name)
		}
		names[s.Name] = true
		if err := s.Window.check(); err != nil {
			return o, fmt.Errorf("split %s: %w", s.Name, err)
		}
		if s.Window.From.Before(o.Window.From) || s.Window.To.After(o.Window.To) {
			return o, fmt.Errorf("split %s: window %v is not inside the import window %v", s.Name, s.Window, o.Window)
		}
		for _, p := range o.Splits[:i] {
			if s.Window.From.Before(p.Window.To) && p.Window.From.Before(s.Window.To) {
				return o, fmt.Errorf("splits %s (%v) and %s (%v) overlap", p.Name, p.Window, s.Name, s.Window)
			}
		}
	}
	return o, nil
}

// checkCapacity checks that the fixed node counts cover exactly the kept
// VCs (or the single cluster) when they are used.
func (o Options) checkCapacity(kept map[string]bool) error {
	if o.Load > 0 {
		if len(o.Nodes) > 0 || o.SingleNodes != 0 {
			return errors.New("give either fixed node counts or a load target, not both")
		}
		return nil
	}
	if o.SingleCluster {
		if len(o.Nodes) > 0 {
			return errors.New("single cluster: give its node count (SingleNodes), not per-VC counts")
		}
		if o.SingleNodes < 1 || int64(o.SingleNodes) > maxCount {
			return fmt.Errorf("single cluster: nodes = %d: must be in 1..%d (or derive them from a load target)", o.SingleNodes, maxCount)
		}
		return nil
	}
	if o.SingleNodes != 0 {
		return errors.New("SingleNodes is for a single cluster; give per-VC node counts")
	}
	for _, vc := range o.VCs {
		n, ok := o.Nodes[vc]
		if !ok {
			return fmt.Errorf("VC %s: no node count (give one per kept VC, or derive them from a load target)", vc)
		}
		if n < 1 || int64(n) > maxCount {
			return fmt.Errorf("VC %s: nodes = %d: must be in 1..%d", vc, n, maxCount)
		}
	}
	for vc := range o.Nodes {
		if !kept[vc] {
			return fmt.Errorf("VC %s has a node count but is not kept", vc)
		}
	}
	return nil
}

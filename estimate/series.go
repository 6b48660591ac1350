package estimate

import (
	"errors"
	"fmt"
	"math"
)

// Key identifies a recurring job for the Cache: the same model, batch size
// or configuration, GPU type and GPU count are assumed to run at the same
// speed (Hydra reuses estimates for such jobs).
type Key struct {
	Model   string // e.g. "imagenet/resnet50"
	Config  string // batch size or run configuration; "" when unknown
	GPUType string // "" when unknown
	GPUs    int    // 0 when unknown
}

// String renders the key as model|config|gpu type|gpus.
func (k Key) String() string {
	return fmt.Sprintf("%s|%s|%s|%d", k.Model, k.Config, k.GPUType, k.GPUs)
}

// Series is the per-iteration time of one training run, t_1 … t_n.
type Series struct {
	// Name identifies the series independently of how its path was
	// written: the parent directory and the file name ("stats/x.csv").
	// The random method seeds its draws from it.
	Name string
	// Path is the file as it was read ("" for a series built in code);
	// errors name it.
	Path  string
	Times []float64 // t_i > 0, finite
	// Lines holds the file line (1-based, header = line 1) that gave each
	// time; nil for a series built in code.
	Lines []int
	Key   Key
	Unit  string // UnitSeconds ("" means seconds too) or UnitNormalised
}

// Units of a series' times.
const (
	UnitSeconds    = "s"
	UnitNormalised = "norm" // the Alibaba mini-batch data, scaled to 0–1000
)

// ErrBadSeries is wrapped by every error about a series' content.
var ErrBadSeries = errors.New("bad series")

// where names the series and, when known, the file line of iteration i
// (0-based) for an error message.
func (s *Series) where(i int) string {
	name := s.Path
	if name == "" {
		name = s.Name
	}
	if i < 0 {
		return name
	}
	if i < len(s.Lines) {
		return fmt.Sprintf("%s line %d (iteration %d)", name, s.Lines[i], i+1)
	}
	return fmt.Sprintf("%s iteration %d", name, i+1)
}

// Validate checks that the series has at least one iteration, that every
// time is finite and positive, and that their total Σ t_i is finite (rows
// of 1e308 overflow it to +Inf); the error names the file and line.
func (s *Series) Validate() error {
	if len(s.Times) == 0 {
		return fmt.Errorf("%s: %w: no iterations", s.where(-1), ErrBadSeries)
	}
	total := 0.0
	for i, t := range s.Times {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("%s: %w: time %v is not a finite number", s.where(i), ErrBadSeries, t)
		}
		if t <= 0 {
			return fmt.Errorf("%s: %w: time %v must be positive", s.where(i), ErrBadSeries, t)
		}
		if total += t; math.IsInf(total, 0) {
			return fmt.Errorf("%s: %w: the total time overflows float64 here (time %v)", s.where(i), ErrBadSeries, t)
		}
	}
	return nil
}

// Total is the actual total time Σ t_i.
func (s *Series) Total() float64 { return sum(s.Times) }

// sum adds xs left to right (a fixed order, so results are reproducible).
func sum(xs []float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t
}

package runfile

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Objective is the objective a run was scored under, as a record: the
// kind's name (a name of simcore.ObjectiveKindNames) and the parameters
// that kind reads (simcore.ObjectiveKind.Reads) — Weights (ω1, ω2, ω3)
// for a kind that weighs its terms (multi, Eq. 5), Omega (ω) for a kind
// with one trade-off (single, Eq. 16; deadline). A parameter the kind
// does not read is absent, so two records are Equal exactly when they
// describe the same objective.
//
// It is best.json's "objective_record"; configs.Objective.Record builds it
// from a config, the one translation.
type Objective struct {
	Kind    string      `json:"kind"`
	Weights *[3]float64 `json:"weights,omitempty"`
	Omega   *float64    `json:"omega,omitempty"`
}

// ReadsOmega reports whether the objective's kind reads ω: a sweep over
// objective.omega changes nothing otherwise.
func (o Objective) ReadsOmega() bool { return o.Omega != nil }

// ReadsWeights reports whether the objective's kind reads the weights.
func (o Objective) ReadsWeights() bool { return o.Weights != nil }

// Validate checks the record: a kind name, at least one parameter,
// weights finite and ≥ 0, ω in [0, 1]. Each error names the field.
func (o Objective) Validate() error {
	if strings.TrimSpace(o.Kind) == "" {
		return errors.New(`"kind" is empty`)
	}
	if o.Weights == nil && o.Omega == nil {
		return fmt.Errorf(`kind %q: neither "weights" nor "omega"`, o.Kind)
	}
	if o.Weights != nil {
		for i, w := range o.Weights {
			if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
				return fmt.Errorf(`"weights": ω%d = %v: must be a finite number ≥ 0`, i+1, w)
			}
		}
	}
	if o.Omega != nil && !(*o.Omega >= 0 && *o.Omega <= 1) {
		return fmt.Errorf(`"omega" = %v: must be in [0, 1]`, *o.Omega)
	}
	return nil
}

// Equal reports whether o and p are the same objective.
func (o Objective) Equal(p Objective) bool {
	eqPtr := func(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	eqW := func(a, b *[3]float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return o.Kind == p.Kind && eqW(o.Weights, p.Weights) && eqPtr(o.Omega, p.Omega)
}

// String is "kind" with its parameters: "multi weights=1,1,1",
// "single omega=0.5".
func (o Objective) String() string {
	parts := []string{o.Kind}
	if o.Weights != nil {
		parts = append(parts, "weights="+FormatWeights(*o.Weights))
	}
	if o.Omega != nil {
		parts = append(parts, "omega="+strconv.FormatFloat(*o.Omega, 'g', -1, 64))
	}
	return strings.Join(parts, " ")
}

// FormatWeights is "ω1,ω2,ω3" (%v: the shortest decimal form each), as
// the eval manifest and evogp simulate --weights write the weights.
func FormatWeights(w [3]float64) string {
	return fmt.Sprintf("%v,%v,%v", w[0], w[1], w[2])
}

// ParseWeights reads FormatWeights' text.
func ParseWeights(s string) ([3]float64, error) {
	var w [3]float64
	parts := strings.Split(s, ",")
	if len(parts) != len(w) {
		return w, fmt.Errorf("weights %q: want three numbers ω1,ω2,ω3", s)
	}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return w, fmt.Errorf("weights %q: ω%d: %w", s, i+1, err)
		}
		w[i] = v
	}
	if slices.ContainsFunc(w[:], func(v float64) bool { return v < 0 || math.IsNaN(v) || math.IsInf(v, 0) }) {
		return w, fmt.Errorf("weights %q: each must be a finite number ≥ 0", s)
	}
	return w, nil
}

package learn

import (
	"fmt"
	"math"
	"slices"
)

// constantTolerance is the relative spread below which an objective
// counts as constant on an instance: max − min ≤ 0.1 % of the largest
// magnitude. Exact equality would miss util on the multi-cluster data,
// where two routings differ by 0.007 % in makespan (docs/FRONT.md).
const constantTolerance = 1e-3

// constantObjectives names the simulated objectives (gp.objectives, size
// left out) that are constant on the training set, one warning each:
// on every training instance that any candidate was scored on during the
// run, the normalised values of every candidate scored there (the
// component cache: every member, offspring and re-scored archive entry of
// every generation, generation 0 included) lie within constantTolerance
// of each other. Such an objective orders no candidate against another:
// it only adds a dimension in which everyone ties, and should be dropped
// from gp.objectives. The cache is checkpointed, so a resumed run gives
// the same warnings as an uninterrupted one.
func (f *frontState) constantObjectives() []string {
	type span struct{ lo, hi float64 }
	// per objective, per instance: the range of the normalised values
	spans := make([]map[int32]span, len(f.names))
	for k := range spans {
		spans[k] = map[int32]span{}
	}
	candidates := map[uint64]bool{}
	for key, v := range f.comp {
		candidates[key.hash] = true
		for k, name := range f.names {
			if name == "size" {
				continue
			}
			s, ok := spans[k][key.inst]
			if !ok {
				s = span{v[k], v[k]}
			}
			s.lo, s.hi = min(s.lo, v[k]), max(s.hi, v[k])
			spans[k][key.inst] = s
		}
	}
	if len(candidates) < 2 {
		return nil // nothing to compare
	}
	var out []string
	for k, name := range f.names {
		if name == "size" {
			continue
		}
		constant := true
		var insts []int32
		for i, s := range spans[k] {
			insts = append(insts, i)
			if s.hi-s.lo > constantTolerance*max(math.Abs(s.lo), math.Abs(s.hi)) || math.IsNaN(s.hi-s.lo) {
				constant = false
			}
		}
		if !constant || len(insts) == 0 {
			continue
		}
		slices.Sort(insts)
		out = append(out, fmt.Sprintf("objective %s is constant on the training set: the %d candidates scored differ by at most %.1f %% on each of the %d training instances they were scored on; it separates no candidate from another — drop it from gp.objectives",
			name, len(candidates), 100*constantTolerance, len(insts)))
	}
	return out
}

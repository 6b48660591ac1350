package pareto

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Hypervolume is the exact Lebesgue measure of the region dominated by
// points and bounded by ref (minimisation: the union of the boxes
// [p, ref]), for two or three objectives. Points not strictly better than
// ref in every objective contribute nothing; duplicates and dominated
// points change nothing. Non-finite coordinates are an error.
func Hypervolume(points [][]float64, ref []float64) (float64, error) {
	if len(ref) != 2 && len(ref) != 3 {
		return 0, fmt.Errorf("hypervolume: %d objectives, exact only for 2 or 3", len(ref))
	}
	var in [][]float64
	for _, p := range points {
		if len(p) != len(ref) {
			return 0, fmt.Errorf("hypervolume: point %v has %d objectives, the reference %d", p, len(p), len(ref))
		}
		inside := true
		for m, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("hypervolume: point %v is not finite", p)
			}
			if !(v < ref[m]) {
				inside = false
			}
		}
		if inside {
			in = append(in, p)
		}
	}
	for _, r := range ref {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return 0, fmt.Errorf("hypervolume: reference point %v is not finite", ref)
		}
	}
	if len(ref) == 2 {
		return area(in, ref[0], ref[1]), nil
	}
	return volume(in, ref), nil
}

// area is the 2-D hypervolume of points (all strictly inside the
// reference box): sorted by the first objective, each point adds the strip
// between its second objective and the best second objective so far.
func area(points [][]float64, rx, ry float64) float64 {
	ps := slices.Clone(points)
	slices.SortStableFunc(ps, func(a, b []float64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	sum, best := 0.0, ry
	for _, p := range ps {
		if p[1] < best {
			sum += (rx - p[0]) * (best - p[1])
			best = p[1]
		}
	}
	return sum
}

// volume is the 3-D hypervolume: slabs between consecutive distinct third
// coordinates, each the 2-D area of the points at or below the slab times
// its height.
func volume(points [][]float64, ref []float64) float64 {
	ps := slices.Clone(points)
	slices.SortStableFunc(ps, func(a, b []float64) int { return cmp.Compare(a[2], b[2]) })
	sum := 0.0
	for k := 0; k < len(ps); {
		z := ps[k][2]
		for k < len(ps) && ps[k][2] == z {
			k++
		}
		top := ref[2]
		if k < len(ps) {
			top = ps[k][2]
		}
		sum += area(ps[:k], ref[0], ref[1]) * (top - z)
	}
	return sum
}

// Interval is the range of ω ∈ [Lo, Hi] over which a member of a
// two-objective front minimises ω·o1 + (1−ω)·o2.
type Interval struct {
	Member int
	Lo, Hi float64
}

// OmegaIntervals returns, for a set of two-objective points, the maximal
// ω intervals of [0, 1] on each of which one member minimises
// ω·o1 + (1−ω)·o2, in ascending ω; where several members tie over a whole
// interval, the lowest index wins. The breakpoints are the exact crossings
// of the members' lines, so a member absent from the result never wins at
// any ω except possibly at a single tie point.
func OmegaIntervals(points [][]float64) []Interval {
	if len(points) == 0 {
		return nil
	}
	cuts := []float64{0, 1}
	for i := range points {
		for j := i + 1; j < len(points); j++ {
			// ω·a1 + (1−ω)·a2 = ω·b1 + (1−ω)·b2  ⇔  ω·(da1 − da2) = −da2, d = a − b
			d1, d2 := points[i][0]-points[j][0], points[i][1]-points[j][1]
			if den := d1 - d2; den != 0 {
				if w := -d2 / den; w > 0 && w < 1 {
					cuts = append(cuts, w)
				}
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var out []Interval
	for k := 0; k+1 < len(cuts); k++ {
		w := PickOmega(points, (cuts[k]+cuts[k+1])/2)
		if n := len(out); n > 0 && out[n-1].Member == w {
			out[n-1].Hi = cuts[k+1]
			continue
		}
		out = append(out, Interval{Member: w, Lo: cuts[k], Hi: cuts[k+1]})
	}
	return out
}

// PickOmega is the index of the member minimising ω·o1 + (1−ω)·o2 (ties:
// lowest index; NaN sums lose).
func PickOmega(points [][]float64, omega float64) int {
	return PickWeights(points, []float64{omega, 1 - omega})
}

// PickWeights is the index of the member minimising Σ w_m·o_m (ties:
// lowest index; NaN sums lose), or −1 for no points.
func PickWeights(points [][]float64, w []float64) int {
	best, bestV := -1, math.Inf(1)
	for i, p := range points {
		v := 0.0
		for m := range w {
			v += w[m] * p[m]
		}
		v = key(v)
		if best < 0 || v < bestV {
			best, bestV = i, v
		}
	}
	return best
}

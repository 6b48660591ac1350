package learn

import (
	"fmt"
	"math"
	"strings"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// Which known ranking a learned one is like (issue 40).
//
// Counting whole decisions on which a formula orders jobs "like X up to
// X's ties" flatters a reference X that ties most jobs: Lyra's key ties
// every job of one class, so almost any order agrees with it. The
// comparison that names a ranking therefore counts job pairs: of the pairs
// of jobs X orders strictly on the sampled decisions (the pairs X
// distinguishes), the share the formula orders the same way. X is named
// only when it is informative on the sample — it distinguishes at least
// informativeShare of the sampled pairs (pairs it ties that arrived
// together are left out: the engine orders those by id whatever the
// ranking, FIFO included) — and the closest informative
// reference is the one with the largest share.

// informativeShare is the share of sampled job pairs a reference ranking
// must order strictly to be compared with (not mostly ties).
const informativeShare = 0.5

// pairStats are a formula's agreement with one reference ranking on the
// job pairs of a sample of decisions.
type pairStats struct {
	total         int // job pairs sampled, but those that tie under the reference and arrived together
	distinguished int // pairs the reference orders strictly
	agree         int // of those, pairs the formula orders the same way
}

func (p pairStats) informative() bool {
	return p.total > 0 && float64(p.distinguished) >= informativeShare*float64(p.total)
}

func (p pairStats) share() float64 {
	if p.distinguished == 0 {
		return 0
	}
	return float64(p.agree) / float64(p.distinguished)
}

// comparePairs counts pairStats of ranking a against ref over ds: a's
// order is the engine's (priority, arrival, id; NaN last), ref's keys
// order a pair strictly when they differ (NaN after every number).
func comparePairs(a, ref simcore.Ranking, ds []decision) pairStats {
	var st pairStats
	var buf []int32
	var keys []float64
	var pos []int
	for _, d := range ds {
		buf, keys = order(a, d, buf, keys)
		pos = pos[:0]
		pos = append(pos, make([]int, len(d))...)
		for p, i := range buf {
			pos[i] = p
		}
		rk := make([]float64, len(d))
		for i := range d {
			rk[i] = ref.Priority(d[i])
		}
		for i := range d {
			for j := i + 1; j < len(d); j++ {
				c := cmpKey(rk[i], rk[j])
				if c == 0 && d[i].Arrival == d[j].Arrival {
					continue // every ranking that ties them orders them by id
				}
				st.total++
				if c == 0 {
					continue
				}
				st.distinguished++
				if (c < 0) == (pos[i] < pos[j]) {
					st.agree++
				}
			}
		}
	}
	return st
}

// cmpKey orders priorities as the engine does, NaN last; equal keys (and
// two NaNs) tie.
func cmpKey(x, y float64) int {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// referenceRule is a known ranking rule a learned ranking is compared
// with: its engine name (the baselines' rankings) or a formula, and how a
// reader calls it.
type referenceRule struct {
	name    string // fifo, srsf, … or a formula's reading
	label   string // FIFO, SRSF, largest weighted wait first, …
	formula string // the rule as a ranking formula, "" when it has none here
	r       simcore.Ranking
}

// referenceRules are referenceRankings with labels and formulas, then
// the formula rules "longest wait first" (0 − q) and "largest weighted
// wait first" (0 − q·u: the wait weighted by the user priority).
func referenceRules(seconds bool) []referenceRule {
	labels := map[string][2]string{
		"fifo": {"FIFO", "0 - a"}, "srsf": {"SRSF", "g * d"}, "lyra": {"Lyra", ""},
		"sjf": {"SJF", ""}, "srtf": {"SRTF", "d"},
	}
	var out []referenceRule
	for _, ref := range referenceRankings() {
		l := labels[ref.name]
		out = append(out, referenceRule{name: ref.name, label: l[0], formula: l[1], r: ref.r})
	}
	for _, f := range []struct{ label, formula string }{
		{"longest wait first", "0 - q"},
		{"largest weighted wait first", "0 - q * u"},
	} {
		out = append(out, referenceRule{name: f.label, label: f.label, formula: f.formula, r: NewFormulaRanking(expr.MustParse(f.formula), seconds)})
	}
	return out
}

// algebraicLike is "≡ FORMULA (LABEL)" when formula simplifies on the
// simulator's inputs to a reference rule's formula, else "".
func algebraicLike(formula *expr.Tree, rules []referenceRule) string {
	dom := expr.DefaultDomain()
	h := expr.SimplifyOn(formula, dom).Hash()
	for _, r := range rules {
		if r.formula == "" {
			continue
		}
		if expr.SimplifyOn(expr.MustParse(r.formula), dom).Hash() == h {
			return fmt.Sprintf("≡ %s (%s)", expr.Readable(expr.MustParse(r.formula), dom), r.label)
		}
	}
	return ""
}

// likenessWarnings are the warnings and the reading of a ranking compared
// with the reference rules on ds: exact equivalence (every decision in
// the same order) and equivalence up to the reference's ties are reported
// for informative references only; otherwise the closest informative
// reference by job pairs, called X-like when the formula agrees with it on
// at least likeShare of the pairs it distinguishes. like is the engine name of the reference
// matched exactly or up to ties (for pairWarning), reading what the
// printed formula says ("orders like …", "FIFO-like (…)"), "" for none.
func likenessWarnings(rank simcore.Ranking, rules []referenceRule, ds []decision) (out []string, like, reading string) {
	var best *referenceRule
	var bestSt pairStats
	var others []string
	for k := range rules {
		ref := &rules[k]
		st := comparePairs(rank, ref.r, ds)
		if !st.informative() {
			continue
		}
		switch same, tied := compareOrders(rank, ref.r, ds); {
		case same == len(ds):
			out = append(out, fmt.Sprintf("the formula ranks jobs exactly like %s on all %d sampled validation decisions (behaviourally equivalent there)", ref.name, len(ds)))
			if like == "" && ref.r != nil && isBaselineRanking(ref.name) {
				like = ref.name
			}
			if reading == "" {
				reading = fmt.Sprintf("orders like %s on all %d sampled validation decisions", ref.label, len(ds))
			}
			continue
		case same+tied == len(ds):
			out = append(out, fmt.Sprintf("the formula ranks jobs like %s on all %d sampled validation decisions, except among jobs %s ties (on %d of them): it is %s with another tie order",
				ref.name, len(ds), ref.name, tied, ref.name))
			if like == "" && isBaselineRanking(ref.name) {
				like = ref.name
			}
			if reading == "" {
				reading = fmt.Sprintf("orders like %s up to its ties on all %d sampled validation decisions", ref.label, len(ds))
			}
			continue
		}
		if best == nil || st.share() > bestSt.share() {
			if best != nil {
				others = append(others, fmt.Sprintf("%s %.1f%%", best.label, 100*bestSt.share()))
			}
			best, bestSt = ref, st
		} else {
			others = append(others, fmt.Sprintf("%s %.1f%%", ref.label, 100*st.share()))
		}
	}
	if len(out) > 0 || best == nil {
		return out, like, reading
	}
	next := ""
	if len(others) > 0 {
		next = "; other informative references: " + strings.Join(others, ", ")
	}
	same, _ := compareOrders(rank, best.r, ds)
	detail := fmt.Sprintf("of the %d job pairs %s orders strictly on %d sampled validation decisions (%.0f%% of the pairs), it orders %.1f%% the same way, and %d of the %d decisions exactly as %s%s",
		bestSt.distinguished, best.label, len(ds), 100*float64(bestSt.distinguished)/float64(bestSt.total), 100*bestSt.share(), same, len(ds), best.label, next)
	if bestSt.share() < likeShare {
		out = append(out, fmt.Sprintf("the formula is like no reference ranking; the closest is %s: %s", best.label, detail))
		return out, like, reading
	}
	out = append(out, fmt.Sprintf("the formula is %s-like: %s", best.label, detail))
	reading = fmt.Sprintf("%s-like (orders %.1f%% of the job pairs %s distinguishes on %d sampled validation decisions as %s does)",
		best.label, 100*bestSt.share(), best.label, len(ds), best.label)
	return out, like, reading
}

// likeShare is the share of the job pairs a reference distinguishes that
// a formula must order the same way to be called like it ("FIFO-like").
const likeShare = 0.8

// isBaselineRanking reports whether name is a ranking of the engine's
// (fifo, srsf, lyra, sjf, srtf), as pairWarning's registry lookup needs.
func isBaselineRanking(name string) bool {
	for _, r := range referenceRankings() {
		if r.name == name {
			return true
		}
	}
	return false
}

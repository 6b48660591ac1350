package tradeoff

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/reports"
)

// DefaultOmegas is the grid of ω at which a front's members are picked:
// the weights of a typical sweep (objective.omega=0,0.25,0.5,0.75,1).
var DefaultOmegas = []float64{0, 0.25, 0.5, 0.75, 1}

// isFrontEval reports whether dir is an eval directory holding fronts
// (evogp eval front=RUN ...): results.parquet and fronts in its manifest.
func isFrontEval(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "results.parquet")); err != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, experiment.MarkerFile))
	return err == nil
}

// readFronts reads an eval directory's fronts as sweep points: for every
// front (one learn run, one seed) and every ω of omegas, the member picked
// on validation for ω (the member whose validation ω interval holds ω) at
// its test means over the directory's instances. The other schedulers'
// rows are the baselines.
func readFronts(dir string, omegas []float64) ([]point, []reports.ResultRow, error) {
	t, err := experiment.ReadTables(dir)
	if err != nil {
		return nil, nil, err
	}
	if len(t.Fronts) == 0 {
		return nil, nil, fmt.Errorf("figure tradeoff: %s is neither a collected sweep (no sweep.parquet) nor an eval of a front (no front in its %s; run evogp eval front=RUN ...)", dir, experiment.MarkerFile)
	}
	members := map[string]bool{}
	for _, set := range t.Fronts {
		for _, m := range set.Members {
			members[m.Label] = true
		}
	}
	type sums struct {
		jct, qt float64
		n       int
	}
	means := map[string]*sums{}
	var base []reports.ResultRow
	for _, r := range t.Results {
		if !members[r.Scheduler] {
			base = append(base, r)
			continue
		}
		s := means[r.Scheduler]
		if s == nil {
			s = &sums{}
			means[r.Scheduler] = s
		}
		s.jct, s.qt, s.n = s.jct+r.AvgJCT, s.qt+r.MaxQT, s.n+1
	}
	var pts []point
	for k, set := range t.Fronts {
		flip, err := omegaOrder(set)
		if err != nil {
			return nil, nil, fmt.Errorf("figure tradeoff: %s: front %s: %w", dir, set.Label, err)
		}
		seed := int64(k + 1)
		if cfg, err := learn.RunConfig(set.Run); err == nil {
			seed = int64(cfg.Seed)
		}
		for _, w := range omegas {
			m, ok := pickMember(set, w, flip)
			if !ok {
				return nil, nil, fmt.Errorf("figure tradeoff: %s: front %s: no member wins ω = %g on validation (is its ω interval recorded?)", dir, set.Label, w)
			}
			s := means[m.Label]
			if s == nil || s.n == 0 {
				return nil, nil, fmt.Errorf("figure tradeoff: %s: front member %s has no test rows", dir, m.Label)
			}
			p := point{row: reports.SweepRow{Point: m.Label, Omega: w, Seed: seed, AvgJCT: s.jct / float64(s.n), MaxQT: s.qt / float64(s.n)}, front: true}
			if p.f, p.routing, err = latexOf(m.Formula); err != nil {
				return nil, nil, fmt.Errorf("figure tradeoff: %s: %s: %w", dir, m.Label, err)
			}
			pts = append(pts, p)
		}
	}
	return pts, base, nil
}

// omegaOrder checks that a front trades AvgJCT against MaxQT; flip is
// true when its objectives are (max_qt, avg_jct), whose ω interval is
// then of 1 − ω.
func omegaOrder(set reports.FrontSet) (flip bool, err error) {
	if len(set.Objectives) == 2 {
		switch {
		case set.Objectives[0] == "avg_jct" && set.Objectives[1] == "max_qt":
			return false, nil
		case set.Objectives[0] == "max_qt" && set.Objectives[1] == "avg_jct":
			return true, nil
		}
	}
	return false, fmt.Errorf("objectives %v: the AvgJCT–MaxQT figure needs a front of exactly avg_jct and max_qt (gp.objectives: [avg_jct, max_qt])", set.Objectives)
}

// pickMember is the member of set picked on validation for ω: the first
// member whose validation ω interval holds ω (at an interval's end two
// members tie; the first in front order is kept).
func pickMember(set reports.FrontSet, omega float64, flip bool) (reports.FrontSetMember, bool) {
	w := omega
	if flip {
		w = 1 - omega
	}
	const eps = 1e-12
	i := slices.IndexFunc(set.Members, func(m reports.FrontSetMember) bool {
		return m.OmegaLo != nil && m.OmegaHi != nil && *m.OmegaLo-eps <= w && w <= *m.OmegaHi+eps
	})
	if i < 0 {
		return reports.FrontSetMember{}, false
	}
	return set.Members[i], true
}

// latexOf is a member's formula (runfile.FrontMember.Formula: "f", or
// "R = routing ; f = ranking") simplified on the simulator's inputs, in
// LaTeX.
func latexOf(formula string) (f, routing string, err error) {
	dom := expr.DefaultDomain()
	ranking := formula
	if r, rest, ok := strings.Cut(formula, " ; f = "); ok && strings.HasPrefix(r, "R = ") {
		ranking = rest
		rt, err := expr.Routing.Parse(strings.TrimPrefix(r, "R = "))
		if err != nil {
			return "", "", fmt.Errorf("routing: %w", err)
		}
		if routing, err = expr.FormatOn(expr.SimplifyOn(rt, dom), "latex", dom); err != nil {
			return "", "", err
		}
	}
	t, err := expr.Parse(ranking)
	if err != nil {
		return "", "", err
	}
	f, err = expr.FormatOn(expr.SimplifyOn(t, dom), "latex", dom)
	return f, routing, err
}

// readDir reads one DIR: a collected sweep, or an eval of fronts.
func readDir(dir string, omegas []float64) ([]point, []reports.ResultRow, error) {
	if _, err := os.Stat(filepath.Join(dir, "sweep.parquet")); err == nil || !isFrontEval(dir) {
		return readSweep(dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	return readFronts(dir, omegas)
}

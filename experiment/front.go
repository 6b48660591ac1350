package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// frontPolicies expands a LABEL=SOURCE entry whose SOURCE is a run (or
// best.json) that learned a front (gp.selection: nsga2) into one policy
// per member, labelled LABEL-1, LABEL-2, … in front order, each running
// its member's formula as LABEL=formula would. ok is false for any other
// entry (which Policies resolves as before).
func (b PolicyBuilder) frontPolicies(entry string) (ps []Policy, ok bool, err error) {
	e := policies.ParseEntry(entry)
	label, source := e.Label, e.Source
	if !e.Labelled || label == "" {
		return nil, false, nil
	}
	path := ""
	if strings.HasSuffix(strings.ToLower(source), ".json") {
		path = source
	} else if st, err := os.Stat(source); err == nil && st.IsDir() {
		path = filepath.Join(source, runfile.BestFile)
	}
	if path == "" {
		return nil, false, nil
	}
	if probe, err := runfile.LoadBest(path); err != nil || probe.Front == nil {
		return nil, false, nil // not a front; FormulaSource reports a bad file
	}
	best, err := learn.ReadBest(path)
	if err != nil {
		return nil, true, fmt.Errorf("scheduler %s: %w", label, err)
	}
	fb := b
	if _, statErr := os.Stat(filepath.Join(filepath.Dir(path), runfile.ConfigFile)); statErr == nil && !b.Explicit {
		cfg, err := learn.RunConfig(filepath.Dir(path))
		if err != nil {
			return nil, true, fmt.Errorf("scheduler %s: %w", label, err)
		}
		fb.Seconds = cfg.GP.TimeUnit == "seconds"
	}
	spec := FormulaScheduler
	if usesFormula(label) {
		spec = label
	}
	// A two-tree front (gp.learn: [routing, ranking]): each member runs its
	// routing tree with the run's scope and spec (best.json's, the pick's).
	routing, err := formula.ReadBestRouting(path)
	if err != nil {
		return nil, true, fmt.Errorf("scheduler %s: %w", label, err)
	}
	set := &reports.FrontSet{Label: label, Run: source, Objectives: best.Front.Objectives}
	for k, m := range best.Front.Members {
		var p Policy
		if routing != nil && m.RoutingInfix != "" {
			r := *routing
			r.Infix = m.RoutingInfix
			p, err = fb.routingPolicy(&r, m.Infix)
		} else {
			p, err = fb.Policy(spec, m.Infix)
		}
		if err != nil {
			return nil, true, fmt.Errorf("scheduler %s member %d: %w", label, k+1, err)
		}
		p.Label, p.Source, p.Spec = fmt.Sprintf("%s-%d", label, k+1), m.Formula(), entry
		p.front = set
		set.Members = append(set.Members, reports.FrontSetMember{Label: p.Label, Formula: m.Formula(), Size: m.Size, OmegaLo: m.OmegaLo, OmegaHi: m.OmegaHi})
		ps = append(ps, p)
	}
	return ps, true, nil
}

// FrontSets lists the fronts among policies, in order of first appearance.
func FrontSets(ps []Policy) []reports.FrontSet {
	var out []reports.FrontSet
	seen := map[*reports.FrontSet]bool{}
	for _, p := range ps {
		if p.front != nil && !seen[p.front] {
			seen[p.front] = true
			out = append(out, *p.front)
		}
	}
	return out
}

// frontOmegaRun is what the ω table of an eval needs from the run of a
// front (front_omega.go): its front (objectives, members' and baselines'
// validation vectors) and its normaliser, gp.allocator + srsf +
// gp.placer of its config.yaml (mct+srsf+bestfit without one). It is
// here because this file may read a learner run's output types.
func frontOmegaRun(run string) (f *runfile.Front, srsfSpec string, err error) {
	path := run
	if !strings.HasSuffix(strings.ToLower(path), ".json") {
		path = filepath.Join(path, runfile.BestFile)
	}
	best, err := learn.ReadBest(path)
	if err != nil {
		return nil, "", err
	}
	if best.Front == nil {
		return nil, "", fmt.Errorf("%s has no front", path)
	}
	srsfSpec = "mct+srsf+bestfit"
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), runfile.ConfigFile)); err == nil {
		cfg, err := learn.RunConfig(filepath.Dir(path))
		if err != nil {
			return nil, "", err
		}
		srsfSpec = cfg.GP.Allocator + "+srsf+" + cfg.GP.Placer
	}
	return best.Front, srsfSpec, nil
}

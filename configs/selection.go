package configs

import (
	"fmt"
	"slices"
	"strings"
)

// FrontObjectives are the objective names gp.objectives may list (SPEC
// §17): the metrics of SPEC §6 (util is minimised as 1 − util, tardiness
// is the total tardiness) and size, the number of nodes of the simplified
// tree.
func FrontObjectives() []string {
	return []string{"cq_avg", "cq_max", "util", "avg_jct", "max_qt", "tardiness", "size"}
}

// SelectionMethod is what a gp.selection method asks of the config.
type SelectionMethod struct {
	// Objectives: the method selects on gp.objectives (two or three of
	// FrontObjectives); a method without them takes none.
	Objectives bool
	// OwnParents, when set, says how the method chooses parents itself
	// (gp.parent_selection must then stay tournament).
	OwnParents string
}

// SelectionMethods are gp.selection's methods by name. learn.Selections
// builds each one's operators; a test there keeps the two lists equal, so
// a new method is its operator file, one line there and one line here.
func SelectionMethods() map[string]SelectionMethod {
	return map[string]SelectionMethod{
		"scalar": {},
		"nsga2":  {Objectives: true, OwnParents: "its own tournament on (rank, crowding)"},
	}
}

// selectionNames are the sorted names of the methods for which has holds.
func selectionNames(has func(SelectionMethod) bool) []string {
	var names []string
	for name, m := range SelectionMethods() {
		if has(m) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// validateSelection checks gp.selection and gp.objectives: a method
// without objectives takes none; one with them takes two or three
// distinct known ones, not only size.
func (g GP) validateSelection() error {
	m, ok := SelectionMethods()[g.Selection]
	if !ok {
		return fmt.Errorf("gp.selection = %q: must be %s", g.Selection, strings.Join(selectionNames(func(SelectionMethod) bool { return true }), " or "))
	}
	if g.Niche < 0 {
		return fmt.Errorf("gp.niche = %d: must be ≥ 0 (0: no clearing)", g.Niche)
	}
	if g.Niche > 0 && g.Selection != "nsga2" {
		return fmt.Errorf("gp.niche = %d: clearing by ranking tree is for gp.selection: nsga2 (gp.selection is %s)", g.Niche, g.Selection)
	}
	if !m.Objectives {
		if len(g.Objectives) > 0 {
			multi := selectionNames(func(m SelectionMethod) bool { return m.Objectives })
			return fmt.Errorf("gp.objectives = %v: objectives are for gp.selection: %s (gp.selection is %s, which minimises the objective section's weighted sum)", g.Objectives, strings.Join(multi, " or "), g.Selection)
		}
		return nil
	}
	if m.OwnParents != "" && g.ParentSelection != "" && g.ParentSelection != "tournament" {
		scalar := selectionNames(func(m SelectionMethod) bool { return m.OwnParents == "" })
		return fmt.Errorf("gp.parent_selection = %q: gp.selection: %s chooses parents by %s; parent_selection is for gp.selection: %s (on a config that sets it, such as quick, add gp.parent_selection=tournament)", g.ParentSelection, g.Selection, m.OwnParents, strings.Join(scalar, " or "))
	}
	known := FrontObjectives()
	seen := map[string]bool{}
	for _, o := range g.Objectives {
		if !slices.Contains(known, o) {
			return fmt.Errorf("gp.objectives: unknown objective %q (have %s)", o, strings.Join(known, ", "))
		}
		if seen[o] {
			return fmt.Errorf("gp.objectives = %v: %s is listed twice", g.Objectives, o)
		}
		seen[o] = true
	}
	switch {
	case len(g.Objectives) == 1 && g.Objectives[0] == "size":
		return fmt.Errorf("gp.objectives = [size]: size alone is no scheduling objective (the smallest formula wins); add one or two of %s", strings.Join(known[:len(known)-1], ", "))
	case len(g.Objectives) < 2:
		return fmt.Errorf("gp.objectives = %v: gp.selection: %s needs two or three objectives (of %s)", g.Objectives, g.Selection, strings.Join(known, ", "))
	case len(g.Objectives) > 3:
		return fmt.Errorf("gp.objectives = %v: at most three objectives (exact hypervolume is for 2 and 3)", g.Objectives)
	}
	return nil
}

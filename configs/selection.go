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

// validateSelection checks gp.selection and gp.objectives: scalar takes no
// objectives; nsga2 takes two or three distinct known ones, not only size.
func (g GP) validateSelection() error {
	switch g.Selection {
	case "scalar":
		if len(g.Objectives) > 0 {
			return fmt.Errorf("gp.objectives = %v: objectives are for gp.selection: nsga2 (gp.selection is scalar, which minimises the objective section's weighted sum)", g.Objectives)
		}
		return nil
	case "nsga2":
		if g.ParentSelection != "" && g.ParentSelection != "tournament" {
			return fmt.Errorf("gp.parent_selection = %q: gp.selection: nsga2 chooses parents by its own tournament on (rank, crowding); parent_selection is for gp.selection: scalar", g.ParentSelection)
		}
	default:
		return fmt.Errorf("gp.selection = %q: must be scalar or nsga2", g.Selection)
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
		return fmt.Errorf("gp.objectives = %v: gp.selection: nsga2 needs two or three objectives (of %s)", g.Objectives, strings.Join(known, ", "))
	case len(g.Objectives) > 3:
		return fmt.Errorf("gp.objectives = %v: at most three objectives (exact hypervolume is for 2 and 3)", g.Objectives)
	}
	return nil
}

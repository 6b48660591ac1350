package learn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evogp/evogp/configs"
)

// Selection is a selection method (gp.selection): how the loop chooses
// parents and survivors. Behavioural de-duplication (gp.dedup: behaviour)
// wraps Survival in Dedup with Order.
type Selection struct {
	Parents  ParentSelection
	Survival Survival
	// Order is the survival preference Dedup keeps the first member of
	// each phenotype in (ByFitness when nil).
	Order Order
	// Objectives says the method reads objective vectors: the run then
	// scores gp.objectives and keeps the multi-objective archive and front
	// (front.go).
	Objectives bool
}

// Selections is the registry of selection methods by gp.selection name:
// a new method is one file and one line here (and its name in
// configs.SelectionMethods, which says what it asks of the config).
func Selections() map[string]func(configs.GP) (Selection, error) {
	return map[string]func(configs.GP) (Selection, error){
		"scalar": scalarSelection,
		"nsga2":  nsga2Selection,
	}
}

// scalarSelection is the paper's: parents by gp.parent_selection (a
// k-tournament on fitness by default) and the n best (μ + λ), with ties in
// fitness broken by size under gp.parsimony.
func scalarSelection(gp configs.GP) (Selection, error) {
	parents, err := newParentSelection(gp)
	if err != nil {
		return Selection{}, err
	}
	order := Order(ByFitness)
	if gp.Parsimony {
		order = ByParsimony
	}
	return Selection{Parents: parents, Survival: MuPlusLambda{order}, Order: order}, nil
}

// nsga2Selection is NSGA-II (nsga2.go) on gp.objectives, cleared by
// ranking tree with gp.niche (niche.go).
func nsga2Selection(gp configs.GP) (Selection, error) {
	return Selection{Parents: CrowdedTournament{Niche: gp.Niche}, Survival: NSGA2{Niche: gp.Niche}, Order: ByFitness, Objectives: true}, nil
}

// newSelection builds gp.selection's method from methods (Selections()),
// wrapped in Dedup when distinct (gp.dedup: behaviour).
func newSelection(gp configs.GP, methods map[string]func(configs.GP) (Selection, error), distinct bool) (Selection, error) {
	f, ok := methods[gp.Selection]
	if !ok {
		var have []string
		for k := range methods {
			have = append(have, k)
		}
		slices.Sort(have)
		return Selection{}, fmt.Errorf("gp.selection = %q: unknown (have %s)", gp.Selection, strings.Join(have, ", "))
	}
	s, err := f(gp)
	if err != nil {
		return Selection{}, err
	}
	if distinct {
		s.Survival = Dedup{Inner: s.Survival, Order: s.Order}
	}
	return s, nil
}

package learn

import (
	"fmt"
	mrand "math/rand"
	"slices"
	"strings"

	"github.com/evogp/evogp/configs"
)

// ParentSelection chooses the parents of each pair the generation loop
// breeds (gp.parent_selection). The loop receives it (Operon/DEAP style:
// operators in, no I/O); it reads the evaluated population only through
// Parents and draws randomness only from the stream it is given, so a run
// stays deterministic. A new operator is one file and one line in
// ParentSelections.
type ParentSelection interface {
	// Pair returns the indexes in pop of two distinct parents (the same
	// index twice only when pop has one member).
	Pair(pop Parents, mr *mrand.Rand) (int, int, error)
}

// Parents is what parent selection reads of the evaluated population.
type Parents interface {
	// Len is the number of members.
	Len() int
	// Fitness is member i's scalar fitness (lower is better, NaN worst).
	Fitness(i int) float64
	// Cases are member i's per-instance terms O_i/O_SRSF,i on the
	// generation's training subset, in subset order (lower is better);
	// their float sum in that order is Fitness. nil when unknown (an
	// offspring pruned by early stop).
	Cases(i int) []float64
}

// ParentSelections is the registry of parent selections by
// gp.parent_selection name; "" is the default, tournament.
func ParentSelections() map[string]func(gp configs.GP) ParentSelection {
	return map[string]func(configs.GP) ParentSelection{
		"tournament": func(gp configs.GP) ParentSelection { return Tournament{K: gp.Tournament} },
		"lexicase":   func(configs.GP) ParentSelection { return EpsilonLexicase{} },
	}
}

// newParentSelection looks gp.parent_selection up in ParentSelections.
func newParentSelection(gp configs.GP) (ParentSelection, error) {
	name := gp.ParentSelection
	if name == "" {
		name = "tournament"
	}
	f, ok := ParentSelections()[name]
	if !ok {
		var have []string
		for k := range ParentSelections() {
			have = append(have, k)
		}
		slices.Sort(have)
		return nil, fmt.Errorf("gp.parent_selection = %q: unknown (have %s)", gp.ParentSelection, strings.Join(have, ", "))
	}
	return f(gp), nil
}

// PreparedSelection is a ParentSelection that summarises the population
// once per generation (NSGA-II's ranks and crowding distances): the loop
// calls Prepare before breeding and takes every pair of that generation
// from the selection it returns.
type PreparedSelection interface {
	ParentSelection
	Prepare(pop Population) ParentSelection
}

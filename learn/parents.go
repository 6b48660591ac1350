package learn

import (
	"fmt"
	mrand "math/rand"
	"slices"
	"strings"

	"github.com/MaxHalford/eaopt"

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

// Tournament is the paper's k-tournament on fitness: eaopt.SelTournament
// draws k distinct contestants without replacement from mr, the lowest
// fitness wins, and the two winners of one call are distinct. k is capped
// at |pop| − 1 (eaopt needs |pop| − 2 ≥ k − 1 to choose two distinct
// winners), so a population of 2 has a tournament of 1 (uniform).
type Tournament struct{ K int }

// Pair implements ParentSelection.
func (t Tournament) Pair(pop Parents, mr *mrand.Rand) (int, int, error) {
	indis := make(eaopt.Individuals, pop.Len())
	for i := range indis {
		indis[i] = eaopt.Individual{Genome: &gene{i}, Fitness: pop.Fitness(i), Evaluated: true}
	}
	sel := eaopt.SelTournament{NContestants: uint(max(1, min(t.K, pop.Len()-1)))}
	w, _, err := sel.Apply(2, indis, mr)
	if err != nil {
		return 0, 0, fmt.Errorf("tournament selection: %w", err)
	}
	// The winners are read back through their genomes: eaopt's returned
	// indexes are wrong when the first contestant wins (see population.go).
	return w[0].Genome.(*gene).idx, w[1].Genome.(*gene).idx, nil
}

// scoredParents is Parents over the loop's members.
type scoredParents []scored

func (p scoredParents) Len() int              { return len(p) }
func (p scoredParents) Fitness(i int) float64 { return p[i].fitness }
func (p scoredParents) Cases(i int) []float64 { return p[i].cases }

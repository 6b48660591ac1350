package learn

import (
	"errors"
	"fmt"
	"math"
	mrand "math/rand"

	"github.com/MaxHalford/eaopt"
)

// Why the generation loop is ours and only the selector is eaopt's.
//
// eaopt v0.4.2 drives a GA through Individual.Evaluate/Crossover/Mutate and
// its models. Used as is, it would get Algorithm 3 wrong:
//
//   - Individual.Crossover takes its mate by value: a mate whose genome is
//     changed in place keeps Evaluated = true and its old fitness, so half of
//     the offspring would never be re-scored.
//   - The Evaluated flag skips individuals that already have a fitness, but
//     Algorithm 3 re-scores the parents on every generation's fresh subset
//     D_sub; a cached fitness from another subset is not comparable.
//   - Only ModGenerational evaluates in parallel (μ + λ models evaluate
//     serially), and Genome.Evaluate takes neither a context (no Ctrl-C) nor
//     the generation's subset or seed.
//   - SelTournament returns wrong indexes when the first contestant wins
//     (the index slot is left 0), and Individuals.SortByFitness is not a
//     stable sort, so it cannot give deterministic ties.
//
// So learn runs its own loop: it wraps the population in eaopt.Individuals
// whose fitness it has already set (Evaluated = true, so eaopt never calls
// Genome.Evaluate), uses eaopt.SelTournament to pick each pair of parents
// (it is correct for that: k distinct contestants sampled without
// replacement, the lowest fitness wins, and the two winners of one call are
// distinct), reads the winners back through their genomes (not through the
// returned indexes), and does variation with expr's operators, evaluation
// with its own parallel evaluator and survival with a stable sort.

// errEaoptEvaluate is what a gene answers if eaopt ever tried to evaluate it:
// learn sets every fitness itself, so reaching it is a bug.
var errEaoptEvaluate = errors.New("learn: eaopt must not evaluate genomes; fitness is set by learn's evaluator")

// gene is the eaopt.Genome of one population member: its index in the
// population slice. eaopt only reads fitness values and clones genomes.
type gene struct{ idx int }

// Evaluate is never used (see errEaoptEvaluate).
func (g *gene) Evaluate() (float64, error) { return math.NaN(), errEaoptEvaluate }

// Mutate is never called: variation is the loop's Variation list.
func (g *gene) Mutate(*mrand.Rand) { panic("learn: eaopt mutation is not used; see variation.go") }

// Crossover is never called: variation is the loop's Variation list.
func (g *gene) Crossover(eaopt.Genome, *mrand.Rand) {
	panic("learn: eaopt crossover is not used; see variation.go")
}

// Clone copies the index.
func (g *gene) Clone() eaopt.Genome { c := *g; return &c }

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
	// indexes are wrong when the first contestant wins (see above).
	return w[0].Genome.(*gene).idx, w[1].Genome.(*gene).idx, nil
}

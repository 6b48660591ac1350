package learn

import (
	"context"
	"math/rand/v2"

	"github.com/evogp/evogp/expr"
)

// The operators of the generation loop (Loop, loop.go). As in Operon and
// DEAP the loop receives them and does no I/O itself: parent selection
// (ParentSelection, parents.go), variation (Variation), evaluation
// (Evaluator), survival (Survival) and recorders (Recorder). Operators see
// the population through the index views Parents, Population and Members,
// never through the loop's own slice, so an operator outside this package
// is written exactly like the built-in ones. Every operator draws its
// randomness only from the streams it is handed, so a run is deterministic
// whatever the number of workers.

// Genome is an individual's trees: the ranking tree f, and with gp.learn:
// [routing, ranking] the routing tree R (else nil).
type Genome struct {
	Routing, Ranking *expr.Tree
}

// Population is what survival (and parent selection that needs more than
// fitness) reads of the evaluated members.
type Population interface {
	Parents
	// Objectives are member i's objective vector (multi-objective
	// selection; lower is better), nil when the evaluator sets none.
	Objectives(i int) []float64
	// Hash is member i's canonical hash (both trees); equal hashes are
	// equal individuals.
	Hash(i int) uint64
	// Phenotype is member i's behaviour hash (gp.dedup: behaviour), 0 when
	// the evaluator sets none.
	Phenotype(i int) uint64
	// Size is the number of nodes of member i's trees.
	Size(i int) int
}

// Members is the population an Evaluator scores: Population plus the
// genomes and a way to set their scores.
type Members interface {
	Population
	Genome(i int) Genome
	// Set stores member i's score.
	Set(i int, s Score)
}

// Score is what an evaluator finds out about a member.
type Score struct {
	Fitness    float64   // lower is better; NaN is worst
	Cases      []float64 // per-case terms whose sum is Fitness (lexicase); nil if unknown
	Objectives []float64 // objective vector (NSGA-II); nil if none
	Phenotype  uint64    // behaviour hash (dedup); 0 if none
}

// Evaluator scores the members of a generation: the fitness function.
type Evaluator interface {
	// Begin starts generation g. It is called before breeding and may
	// draw from rng, the loop's master stream (the simulator's evaluator
	// samples its training subset D_sub there).
	Begin(g int, rng *rand.Rand)
	// Evaluate scores every member of pop: the first parents members are
	// the surviving parents (re-scored: a new subset makes old fitness
	// incomparable), the rest are offspring. At generation 0 every member
	// counts as a parent.
	Evaluate(ctx context.Context, pop Members, parents int) (EvalStats, error)
}

// EvalStats counts the work of one Evaluate: terms seen for the first time
// (Evaluations), terms answered from a cache (CacheHits), simulations run
// and offspring proved unable to survive (Pruned). A toy evaluator may
// count one evaluation per member.
type EvalStats struct {
	Evaluations, CacheHits, Simulations, Pruned int
}

// Survival chooses the members that live on.
type Survival interface {
	// Survive returns the indexes in pop of at most n survivors (all of
	// pop when it has n or fewer members), ordered best first by scalar
	// fitness, then canonical hash (ByFitness), as the generation rows
	// and the hall of fame read them.
	Survive(pop Population, n int) []int
}

// Variation changes the two children bred from a pair of parents. It
// starts from copies of the parents (trees are immutable values, so
// returning an input is safe) and every operator of the loop's list is
// applied in turn; a new operator is one file and one line in
// variationOperators.
type Variation interface {
	Vary(rng *rand.Rand, a, b Genome) (Genome, Genome)
}

// Recorder observes the loop (gonum optimize's Recorder): the progress
// bar, checkpoints and generations.parquet are recorders the caller
// installs, so the loop itself writes nothing.
type Recorder interface {
	// Init is called once before the loop runs generations first..last
	// (first > 0 after a resume; first > last when nothing is left).
	Init(first, last int) error
	// Record is called after generation g is complete, in the order the
	// recorders were installed; an error stops the loop and is returned
	// as is.
	Record(ctx context.Context, g *Generation) error
	// Done is called once when the loop returns, with its error (nil:
	// every generation ran).
	Done(err error) error
}

// Generation is a finished generation as recorders see it.
type Generation struct {
	Number     int
	Row        GenerationRow
	Stats      EvalStats
	Population Population // the survivors, best first
}

// scoredMembers is Members over the loop's own members.
type scoredMembers []scored

func (p scoredMembers) Len() int                   { return len(p) }
func (p scoredMembers) Fitness(i int) float64      { return p[i].fitness }
func (p scoredMembers) Cases(i int) []float64      { return p[i].cases }
func (p scoredMembers) Objectives(i int) []float64 { return p[i].objs }
func (p scoredMembers) Hash(i int) uint64          { return p[i].hash }
func (p scoredMembers) Phenotype(i int) uint64     { return p[i].pheno }
func (p scoredMembers) Size(i int) int             { return p[i].size() }
func (p scoredMembers) Genome(i int) Genome        { return Genome{p[i].routing, p[i].tree} }

func (p scoredMembers) Set(i int, s Score) {
	p[i].fitness, p[i].cases, p[i].objs, p[i].pheno = s.Fitness, s.Cases, s.Objectives, s.Phenotype
}

// subPopulation is the members idx of pop, in that order.
type subPopulation struct {
	pop Population
	idx []int
}

func (s subPopulation) Len() int                   { return len(s.idx) }
func (s subPopulation) Fitness(i int) float64      { return s.pop.Fitness(s.idx[i]) }
func (s subPopulation) Cases(i int) []float64      { return s.pop.Cases(s.idx[i]) }
func (s subPopulation) Objectives(i int) []float64 { return s.pop.Objectives(s.idx[i]) }
func (s subPopulation) Hash(i int) uint64          { return s.pop.Hash(s.idx[i]) }
func (s subPopulation) Phenotype(i int) uint64     { return s.pop.Phenotype(s.idx[i]) }
func (s subPopulation) Size(i int) int             { return s.pop.Size(s.idx[i]) }

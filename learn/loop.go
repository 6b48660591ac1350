package learn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// Loop is the generation loop of Algorithm 3 with its operators injected
// (Operon/DEAP): it breeds, evaluates and selects, keeps the population,
// the generation rows and the hall of fame, and calls its recorders after
// every generation. It does no I/O; its only randomness is RNG and the
// per-generation stream it derives from it (rng.go), so a run is the same
// whatever the evaluator's number of workers, and a loop whose state
// (population, rows, hall, generation, RNG) is restored continues exactly
// where the saved one was (the checkpoint recorder saves that state).
//
// Generation 0 starts Evaluator (Begin) and evaluates Init's population.
// Each generation g ≥ 1 then: Begin; draws the seed of the generation's
// parent-selection stream; breeds Offspring children from the current
// population, whose fitness is from the previous generation (Algorithm 3
// line 6 runs before line 14 re-scores the parents) — pairs chosen by
// Parents, varied by every operator of Variations; evaluates parents and
// offspring together; keeps Survival's choice of Size members.
type Loop struct {
	Size        int // n: the population size
	Offspring   int // children bred per generation (Size when 0)
	Generations int // G: the last generation
	// HallOfFame is how many distinct members the hall of fame keeps;
	// Alpha divides fitness into its scores (the number of terms a fitness
	// sums, so that the scores are means).
	HallOfFame, Alpha int
	RNG               *rand.Rand
	// Init draws the initial population from rng.
	Init       func(rng *rand.Rand) []Genome
	Parents    ParentSelection
	Variations []Variation
	Evaluator  Evaluator
	Survival   Survival
	Recorders  []Recorder

	// Screen, if set, cuts each generation's offspring to those evaluated
	// (observe.go); Archives see every generation's evaluated members and
	// survivors, in order.
	Screen   Screen
	Archives []Archive

	gen  int // last completed generation; −1 before generation 0
	pop  []scored
	hall []HallEntry
	rows []GenerationRow
}

// evaluationError is an Evaluator's error in generation g; completed is
// the last generation the loop had completed (−1: none).
type evaluationError struct {
	g, completed int
	err          error
}

func (e *evaluationError) Error() string {
	return fmt.Sprintf("learn: generation %d: %v", e.g, e.err)
}

func (e *evaluationError) Unwrap() error { return e.err }

// Run runs the generations after the last completed one up to
// Generations: from generation 0 on a Loop that has no population yet.
func (l *Loop) Run(ctx context.Context) (err error) {
	if l.pop == nil {
		l.gen = -1
	}
	for k, rec := range l.Recorders {
		if err := rec.Init(l.gen+1, l.Generations); err != nil {
			for _, done := range l.Recorders[:k] {
				done.Done(err)
			}
			return err
		}
	}
	defer func() {
		for _, rec := range l.Recorders {
			if derr := rec.Done(err); err == nil && derr != nil {
				err = derr
			}
		}
	}()
	for g := l.gen + 1; g <= l.Generations; g++ {
		if err := l.generation(ctx, g); err != nil {
			return err
		}
	}
	return nil
}

// Generation is the last completed generation (−1: none).
func (l *Loop) Generation() int { return l.gen }

// Survivors are the population after the last generation, best first.
func (l *Loop) Survivors() Members { return scoredMembers(l.pop) }

// Rows are the generation rows so far (generations.parquet's).
func (l *Loop) Rows() []GenerationRow { return l.rows }

// Hall is the hall of fame: the HallOfFame best distinct members offered
// so far, by (score, hash).
func (l *Loop) Hall() []HallEntry { return l.hall }

// LoopState is what a loop carries from one generation to the next
// besides its RNG. Saved after a generation together with the RNG's
// source state (a *rand.PCG is an encoding.BinaryMarshaler), it lets a new
// Loop with the same operators continue exactly: Restore, then Run.
// learn's checkpoint (checkpoint.go) is this plus the evaluator's state.
type LoopState struct {
	Generation int             // last completed generation; −1: none
	Population []Genome        // the survivors, best first
	Scores     []Score         // Population's scores, in the same order
	Rows       []GenerationRow // one per completed generation
	Hall       []HallEntry     // the hall of fame, by (score, hash)
}

// State is the loop's state (copies of its slices).
func (l *Loop) State() LoopState {
	st := LoopState{Generation: l.gen, Rows: slices.Clone(l.rows), Hall: slices.Clone(l.hall)}
	for _, c := range l.pop {
		st.Population = append(st.Population, Genome{c.routing, c.tree})
		st.Scores = append(st.Scores, Score{Fitness: c.fitness, Cases: c.cases, Objectives: c.objs, Phenotype: c.pheno})
	}
	return st
}

// Restore sets the loop's state; the next Run continues with generation
// st.Generation + 1.
func (l *Loop) Restore(st LoopState) error {
	switch {
	case len(st.Scores) != len(st.Population):
		return fmt.Errorf("loop state: %d scores for %d members", len(st.Scores), len(st.Population))
	case st.Generation < -1 || len(st.Rows) != st.Generation+1:
		return fmt.Errorf("loop state: generation %d with %d rows", st.Generation, len(st.Rows))
	case st.Generation >= 0 && len(st.Population) == 0:
		return fmt.Errorf("loop state: generation %d without a population", st.Generation)
	}
	l.gen, l.rows, l.hall, l.pop = st.Generation, slices.Clone(st.Rows), slices.Clone(st.Hall), nil
	for i := range l.hall {
		l.hall[i].hash = individualHash(l.hall[i].Routing.Tree, l.hall[i].Tree)
	}
	if len(st.Population) > 0 {
		l.pop = make([]scored, len(st.Population))
	}
	for i, g := range st.Population {
		l.pop[i] = newScored(g.Routing, g.Ranking)
		scoredMembers(l.pop).Set(i, st.Scores[i])
	}
	return nil
}

// generation runs generation g.
func (l *Loop) generation(ctx context.Context, g int) error {
	t0 := time.Now()
	l.Evaluator.Begin(g, l.RNG)
	var all, off []scored
	if g == 0 {
		for _, gn := range l.Init(l.RNG) {
			all = append(all, newScored(gn.Routing, gn.Ranking))
		}
	} else {
		mr := generationRand(l.RNG)
		n := l.Offspring
		if n == 0 {
			n = l.Size
		}
		var err error
		if off, err = breedWith(l.pop, n, l.Parents, l.Variations, l.RNG, mr); err != nil {
			return fmt.Errorf("learn: generation %d: %w", g, err)
		}
		if l.Screen != nil {
			keep := l.Screen.Screen(scoredMembers(l.pop), scoredMembers(off))
			kept := make([]scored, len(keep))
			for j, i := range keep {
				kept[j] = off[i]
			}
			off = kept
		}
		all = append(append(make([]scored, 0, len(l.pop)+len(off)), l.pop...), off...)
	}
	np := len(all) - len(off)
	st, err := l.Evaluator.Evaluate(ctx, scoredMembers(all), np)
	if err != nil {
		return &evaluationError{g: g, completed: l.gen, err: err}
	}
	for _, a := range l.Archives {
		a.Evaluated(g, scoredMembers(all), np)
	}
	idx := l.Survival.Survive(scoredMembers(all), l.Size)
	l.pop = make([]scored, len(idx))
	for k, i := range idx {
		l.pop[k] = all[i]
	}
	for _, a := range l.Archives {
		if err := a.Survived(g, scoredMembers(all), scoredMembers(l.pop)); err != nil {
			return fmt.Errorf("learn: %w", err)
		}
	}
	best := l.pop[0]
	row := GenerationRow{
		Generation: int64(g), Best: best.fitness, Median: median(l.pop), Worst: l.pop[len(l.pop)-1].fitness,
		BestFormula: individualString(best.routing, best.tree), Size: int64(best.size()), Depth: int64(best.depth()),
		Unique: int64(unique(l.pop)), Evaluations: int64(st.Evaluations), CacheHits: int64(st.CacheHits),
		WallSeconds: time.Since(t0).Seconds(),
	}
	l.rows = append(l.rows, row)
	l.hall = updateHall(l.hall, l.pop, g, max(1, l.Alpha), l.HallOfFame)
	l.gen = g
	gen := &Generation{Number: g, Row: row, Stats: st, Population: scoredMembers(l.pop)}
	for _, rec := range l.Recorders {
		if err := rec.Record(ctx, gen); err != nil {
			return err
		}
	}
	return nil
}

package learn

// Two more operators of the loop, beside those of operators.go: a screen
// that decides which offspring are worth evaluating, and archives that
// keep state across generations beyond the population. The simulator's
// run installs its surrogate (gp.surrogate) as both and its
// multi-objective front (gp.selection: nsga2) as an archive
// (sim_hooks.go); a loop without them evaluates every offspring.

// Screen cuts the offspring bred in a generation to those the evaluator
// scores (a surrogate model's pre-selection). It sees the survivors of the
// last generation and the offspring, which have no score yet, and returns
// the indices of the offspring to keep, ascending; the loop evaluates
// those, after the parents.
type Screen interface {
	Screen(survivors Population, offspring Members) []int
}

// Archive keeps what a run learns beyond the population: each generation
// it sees every evaluated member and then the survivors. Archives are
// called in the loop's order.
type Archive interface {
	// Evaluated sees the members evaluated in generation g, scored: the
	// first parents are the re-scored parents, the rest the offspring.
	Evaluated(g int, all Members, parents int)
	// Survived sees the generation's evaluated members and the
	// survivors (Survival's choice, best first). It may reorder all. An
	// error stops the run.
	Survived(g int, all, survivors Members) error
}

// Package learn trains scheduling priority functions by genetic programming
// (SPEC §8, the paper's Algorithm 3): it breeds expr trees, scores each
// candidate by simulating the candidate scheduler (gp.allocator + candidate
// + gp.placer, mct + · + best fit by default, built by
// policies.ParseWith) on a sampled subset of training instances,
// normalised by the SRSF baseline, exports the best simplified formula, and
// reports honestly how it does against every baseline on a held-out test
// split.
//
// # Terminals
//
// A formula's leaves come from gp.terminals (default the paper's d, q, u,
// g) — names of expr's terminal catalogue — plus ephemeral constants with
// gp.constants. FormulaRanking (formula.Ranking) maps each name to its
// value for a job (formula.Features: one line per terminal), computing only the
// terminals the formula uses; it asks the engine for cluster state
// (NeedsClusterState) only when the formula reads f, n, e or v. best.json
// records the terminal set; ReadBest refuses a formula that uses a terminal
// outside it, and a run refuses seed formulas outside gp.terminals.
//
// # Fitness
//
// For a candidate c and a training subset D_sub (minimised):
//
//	fitness(c) = Σ_{i ∈ D_sub} O_c,i / O_SRSF,i                 (Eqs. 14–15)
//
// where O_x,i is the config's objective (Eq. 5, ω1·cq_avg + ω2·cq_max +
// ω3·(1 − util), or Eq. 16, ω·avg_jct + (1 − ω)·max_qt) of the simulation of
// instance i under mct + x + best fit with the config's trigger and backfill
// mode. SRSF therefore scores |D_sub|; every printed score divides by the
// subset size so that SRSF is 1. O_SRSF,i is simulated once per instance.
// If O_SRSF,i = 0 the term is 1 when O_c,i = 0 and 1 + O_c,i otherwise.
// The terms are summed in ascending instance order.
//
// The validation score of a tree is the mean of O_c,i / O_SRSF,i over the
// validation instances.
//
// # Algorithm 3
//
// Generation 0 draws D_sub and evaluates the initial population (ramped
// half-and-half over gp.init_depth). Each generation g = 1..G draws a fresh
// D_sub (α = gp.subset instances without replacement), breeds n offspring —
// pairs of distinct parents by k-tournament (eaopt.SelTournament) on the
// parents' current fitness (or by the gp.parent_selection operator the
// loop receives: ParentSelection in parents.go, ε-lexicase over the
// subset's instances in lexicase.go; a new one is a file and a line in
// ParentSelections), subtree crossover of the pair with probability
// gp.crossover (two children, c1 = p1 ⊗ p2 and c2 = p2 ⊗ p1), then subtree
// mutation of both children with probability r = gp.mutation — evaluates
// parents and offspring on the new D_sub, and keeps the n best (μ + λ).
// After generation G the final population and the hall of fame (the best
// distinct trees by training score, gathered over all generations,
// gp.hall_of_fame of them) are evaluated on the validation set; the lowest
// validation score wins (ties: smaller tree, then lower canonical hash), is
// simplified (expr.Simplify, exact) and exported.
//
// The generation loop is Loop (loop.go). It receives its operators —
// ParentSelection, a list of Variation, an Evaluator, Survival — and its
// Recorders (validation curve, checkpoint, progress, generations.parquet),
// and does no I/O itself; the simulator is one Evaluator among others
// (the tests run the loop on a toy regression). docs/DESIGN.md's learn
// section describes the operators, checkpoints and determinism.
//
// Options beyond the paper (each off in configs/paper.yaml):
//
//   - gp.seed_formulas: formulas (e.g. the baselines' rankings g * d for
//     SRSF, 0 - a for FIFO, 0 - w for Lyra) replace the first members of
//     the initial population.
//   - gp.dedup: behaviour — survival keeps, in (fitness, hash) order, the
//     first member of each phenotype, and fills with the next best only if
//     fewer than n phenotypes exist. A phenotype is the order the ranking
//     puts jobs in (by priority, then arrival and id, as the engine does)
//     on each of gp.dedup_sample scheduling decisions recorded while SRSF
//     runs on the training instances, hashed.
//   - gp.subset: larger training subsets per generation (the same subset
//     for parents and offspring, as in the paper).
//   - gp.validate_every k (default 10): the best individual's validation
//     score every k generations and at the last, for the convergence plot
//     (drawn as marked points on a dotted line, on one common set, beside
//     the per-subset training curves) and best.json only (it never
//     influences selection); its cost is one validation run per k
//     generations.
//
// # Two trees (gp.learn: [routing, ranking], SPEC §16)
//
// An individual may carry a routing tree R (over gp.routing_terminals, of
// expr's routing catalogue) beside the ranking tree f; it is scored as
// rule(R, gp.scope) + f + gp.placer (simcore/rule), normalised by
// gp.allocator + srsf + gp.placer as in §8 (multitree*.go). The initial
// population pairs ramped half-and-half ranking trees (gp.seed_formulas
// first) with routing trees drawn after them (gp.seed_routing first).
// Breeding keeps the tournament and, per pair, crossover (probability
// gp.crossover) and mutation (gp.mutation) each pick one tree uniformly;
// with probability gp.tree_swap the children then exchange routing trees.
// The pair's hash (both canonical hashes mixed) keys the cache, survival,
// the hall of fame, the curve and the checkpoint; behavioural dedup pairs
// f's phenotype with R's canonical hash. Order equivalence is off (it
// answers from ranking traces only), early stop stays on. best.json,
// hall_of_fame.csv, the test table and the warnings carry both trees;
// gp.learn: [ranking] (the default) writes exactly what it always did.
// gp.selection: nsga2 with two trees is refused.
//
// # Multi-objective selection (gp.selection: nsga2, SPEC §17)
//
// The loop receives its selection method from the registry Selections
// (selection.go): scalar (the paper's, above) or NSGA-II (nsga2.go) on
// gp.objectives — per-component SRSF-normalised objectives,
// non-dominated sorting with crowding distance for survival, binary
// tournament on (rank, crowding) for parents, an
// archive of the candidates seen that none dominates on the same
// instances (re-scored on each generation's subset, front_archive.go),
// both trees with gp.learn: [routing, ranking], and at the end the
// validation front, its ω intervals and the member for the config's ω,
// which becomes the run's formula (front.go, front_run.go). Outputs:
// front.parquet, front.png/.svg, best.json "front", and a hypervolume
// column in generations.parquet. Early stop under nsga2 is exact on the
// dominance test: an offspring stops being simulated once its partial
// objectives are dominated by gp.population parents (so it cannot
// survive); the checkpoint keeps the per-component cache, so --resume
// simulates what an uninterrupted run does. Order equivalence is off
// under nsga2. The arithmetic is internal/pareto. gp.niche K clears both
// NSGA-II orders by ranking tree (niche.go): only the first K members
// with the same ranking tree keep their place, the rest follow every
// kept member, so the population keeps more ranking families; early
// stop's dominance bound is off with it.
//
// # Surrogate (gp.surrogate: knn, off by default)
//
// It changes results, so the paper config keeps it off. Each generation
// breeds gp.surrogate_pool × n offspring and simulates only the n that a
// k-nearest-neighbour model (gp.surrogate_k) ranks best; the model
// predicts fitness from a phenotypic characterisation (per sampled SRSF
// decision, SRSF's rank of the job the rule puts first; Hildebrandt and
// Branke 2015) over an archive of recently simulated individuals, which
// the checkpoint keeps. Offspring repeating a parent come last by default;
// gp.surrogate_repeats: free keeps those among the first n bred first, as
// cache hits that cost no simulation. Survival, the tournament, the hall
// of fame and every report use simulated fitness only (surrogate*.go).
//
// # Early stop (gp.early_stop, on by default)
//
// It changes no result, only the time taken. In generations g ≥ 1 the
// parents are scored first; T, the worst parent's fitness on the new
// subset, is then a fitness above which no offspring can survive (μ + λ
// keeps the first n of a stable sort on (fitness, hash) of parents then
// offspring, so an offspring strictly worse than all n parents has n
// members ahead of it). Each offspring's missing terms are simulated with
// simcore.Options.StopAbove set so that the simulation stops as soon as
// simcore's exact lower bound of the objective proves the fitness above T
// (evaluator.fitness states the thresholds and the rounding margin). Such
// an offspring gets fitness +Inf and is dropped, as it would have been;
// its stopped or skipped terms are cached as lower bounds, never as exact
// values, and count as seen, so generations.parquet's evaluation and
// cache-hit counts, the survivors, the hall of fame, best.json and resume
// are identical with and without it (TestEarlyStopNeverChangesResults,
// TestEarlyStopResume). With gp.dedup: behaviour it applies only in
// generations whose parents carry n distinct phenotypes (then the n places
// fill before any strictly worse offspring); no reported statistic
// (best, median, worst) reads a pruned value, since all are of survivors.
//
// # Order equivalence
//
// It changes no result either, only the time taken. A training term of a
// candidate B is answered without simulating when B orders every job view
// that an already simulated candidate A's ranking was evaluated on exactly
// as A does (ties kept, strict order kept, NaN last); the list scheduler
// uses its ranking only through such comparisons, so B's simulation would
// be A's, and B gets A's objective bit for bit (equivalence.go states the
// argument). Each simulated term records its views (the run's terminal
// values and the key) as a trace; traces are kept per training and
// validation instance (validation scores use them too) within a memory
// budget, most recently used first, and a task tries the
// traces recorded before its batch, so the outcome does not depend on the
// worker count. In a converged population most offspring are syntactic
// variants (introns) of their parents, and most of their terms are
// answered this way. Only for the user and mct allocators. The counts of
// generations.parquet are unchanged (a term answered from a trace counts
// as an evaluation); TestOrderEquivalenceNeverChangesResults compares runs
// with and without it, and TestTraceMatchImpliesSameSimulation checks the
// claim term by term.
//
// # Reduction: the formulas a person reads (reduce*.go)
//
// After the pick, the chosen individual is reduced to the smallest trees
// found that schedule every training and validation instance exactly as
// the evolved ones do, job for job (cluster, start, finish, preemptions,
// migrations), checked by simulation: greedy, smallest candidate first
// (expr.Reductions: a subtree replaced by an operand, a terminal of the
// run's set, 0 or 1; expr.SimplifyOn; expr.PushNegations), a candidate
// rejected at its first differing scheduling operation. best.json
// "reduced" holds the reduced trees, what they were checked on, their
// validation and test scores (and on how many test instances, which were
// not checked, the schedule is still identical); the evolved trees stay
// in "tree" / "routing_tree". Warnings, formula.go.txt, formula.tex, the
// hall of fame's readable column, the front's member and every printed
// formula use the reduced trees; the test table scores the evolved ones.
// Settings.ReduceTolerance (learn --reduce-tolerance) adds an
// approximation, labelled as such, never used as the result. gp.parsimony
// orders equal-fitness survivors by size (parsimony.go).
//
// # Honest reporting
//
// A finished run scores the chosen formula on the held-out test split
// (LoadTest: data.test_dir, or data.test instances generated from the
// seed's "test" split) against every named baseline (policies.Baselines),
// the constant priority 0 and SRSF, with mean objective, mean normalised
// objective, wins, mean rank, and better/tied/worse counts and a paired
// Wilcoxon signed-rank test against the best baseline (ScoreOnTest). The
// headline (Headline) compares with the best baseline on validation and on
// test. Warnings says when the formula is constant on the simulator's
// inputs (expr.SimplifyOn) or orders every sampled validation decision
// exactly like a reference ranking (fifo, srsf, lyra, sjf, srtf). All of
// it is in best.json.
//
// Depth overflow is delegated to expr's operators: Crossover and
// SubtreeMutation only choose points that keep the child within
// gp.max_depth, and if no such choice exists they return a copy of the
// parent. No offspring is ever deeper than gp.max_depth.
//
// Ties are deterministic: survival is a stable sort on (fitness, canonical
// hash of the simplified tree), so equal keys — which are the same function —
// keep insertion order (parents first, then offspring in breeding order).
// The tournament breaks fitness ties in favour of the first contestant
// sampled. eaopt's tournament needs k ≤ n − 1, so k is capped there.
//
// Why learn runs its own generation loop around eaopt's selector is written
// down in tournament.go (defects of eaopt v0.4.2's Individual and models).
//
// # Determinism
//
// Every random draw comes from one PCG stream seeded from the config seed
// (see rng.go); a run's outputs are the same for any gp.workers and
// GOMAXPROCS, and a run interrupted and resumed from its checkpoint ends
// with exactly the same best.json and per-generation data (wall times
// aside) as one that was not.
//
// The fitness cache maps (canonical hash of the simplified tree, training
// instance) to O_c,i / O_SRSF,i. Simplify is exact, so every tree with that
// hash yields the same simulation, and a cache hit returns exactly what a
// simulation would. It is checkpointed anyway (checkpoint/cache.bin) so
// that the per-generation evaluation and cache-hit counts survive a resume.
//
// # Run directory
//
// Run builds the run directory under a temporary sibling name and renames
// it when the run completes; a run that fails leaves nothing. A cancelled
// run (Ctrl-C) that has checkpointed at least one generation is renamed to
// its final name with config.yaml and checkpoint/ only, and Resume
// continues it in place. Cancellation stops the simulations in flight
// (simcore.Simulate checks the context at every operation); the generation
// they belonged to is dropped and recomputed on resume from the previous
// generation's checkpoint (RNG state included), so nothing of it leaks into
// the result. A process killed outright (SIGKILL, power loss) leaves the
// temporary ".NAME.tmp-*" sibling with its last checkpoint; Resume works on
// that directory too (rename it first to keep the name). A finished run
// keeps its last generation's checkpoint, so Resume with a larger
// gp.generations (and no other key changed but gp.workers) extends it: the
// loop continues from that checkpoint, and the outputs are those of a
// single run with the new generation count (the one thing the short run
// has that the long one lacks, a validation-curve point at its last
// generation when that is not a multiple of gp.validate_every, is dropped
// on restore). Files: config.yaml, generations.parquet,
// hall_of_fame.csv (ranked on the validation set, one common set: the
// train_score column was measured on each entry's own generation's
// subset), best.json, formula.go.txt (Go source; not named .go so
// that a run directory inside a module is never a Go package), formula.tex,
// convergence.png, convergence.svg (mean normalised objective per training
// instance, best and median, the best individual's validation score and the
// best baseline's validation level), checkpoint/.
//
// # Dependencies
//
// FormulaRanking is package formula's Ranking, the adapter that lets a
// compiled expr.Program act as a simcore.Ranking; it defines the units the
// formula sees (d and q in hours by default, SPEC §2). It lives outside
// learn so that evaluating a saved policy does not import the learner.
//
// learn imports expr, simcore, datasets, configs and formula, plus the small shared
// helpers internal/atomicio, internal/parallel, internal/progress,
// internal/stats (the Wilcoxon test) and internal/runlog (the generation
// table and the convergence figure, which reports also uses). It does not
// import reports (TestImports). Neither expr nor simcore imports learn.
package learn

// Package learn trains scheduling priority functions by genetic programming
// (SPEC §8, the paper's Algorithm 3): it breeds expr trees, scores each
// candidate by simulating the scheduler mct + candidate + best fit on a
// sampled subset of training instances, normalised by the SRSF baseline, and
// exports the best simplified formula.
//
// FormulaRanking is the adapter that lets a compiled expr.Program act as a
// simcore.Ranking; it defines the units the formula sees (d and q in hours by
// default, SPEC §2).
//
// learn imports expr, simcore and datasets; neither expr nor simcore imports
// learn.
package learn

// Package pareto is the arithmetic of multi-objective selection (SPEC
// §17): Pareto dominance, non-dominated sorting and crowding distance
// (Deb, Pratap, Agarwal and Meyarivan, "A fast and elitist multiobjective
// genetic algorithm: NSGA-II", IEEE TEVC 2002), exact hypervolume in two
// and three dimensions, and the ω intervals of a two-objective front under
// the weighted sum ω·o1 + (1−ω)·o2.
//
// Every objective is minimised. NaN compares worse than every number.
// Results are deterministic: ties keep index order.
//
// It imports only the standard library; it must not import any evogp
// package (it is shared by learn, experiment and reports).
package pareto

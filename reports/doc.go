// Package reports turns result tables into statistics, summaries and
// figures. It takes tables, never simulations: its inputs are the row types
// defined here (ResultRow, JobRow, GenerationRow, SweepRow, PressureRow),
// read from Parquet or CSV files whose columns docs/RESULTS.md documents,
// and it imports no other evogp package except the small shared helpers
// internal/atomicio, internal/stats (the Wilcoxon test), internal/figure
// (figure rendering), internal/tablefile (Parquet/CSV tables) and
// internal/runlog (the generation log and convergence plot it shares with
// learn).
//
// Tables: WriteResults/ReadResults and friends write atomically (temporary
// file + rename) and validate every row on both sides.
//
// Statistics (Summarize): per scheduler the mean ± sample standard
// deviation of every metric over instances, the objective normalised by a
// reference scheduler (mean over instances of O_s,i / O_ref,i; SRSF —
// "tiresias" — by default, as in the learner's fitness, SPEC §8), wins and
// mean rank on the objective, and a two-sided paired Wilcoxon signed-rank
// test of each scheduler against the best baseline.
//
// Figures (gonum/plot): the ranking histogram (paper Fig. 4), queuing-time
// densities per user-priority class (Fig. 5, Gaussian KDE with Silverman's
// bandwidth), the objective breakdown (Fig. 6), the JCT CDF, the
// load-pressure curves with ±sd bands (Fig. 9a), GP convergence and the ω
// trade-off (Fig. 8). Every figure uses the Okabe–Ito colour-blind-safe
// palette and renders to identical bytes for an identical table.
package reports

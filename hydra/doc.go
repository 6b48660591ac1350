// Package hydra holds the deadline-aware schedulers of SPEC §13 for
// heterogeneous GPU clusters in Hydra's model (every job uses one GPU, every
// GPU runs one job at a time, no preemption): the Hydra scheduler itself
// (multi-round min-cost search with a per-GPU branch and bound and a swap
// heuristic), and the baselines it is compared with — EDF, sjf-fastest
// ("Gavel" in Hydra's evaluation), AlloX (a min-cost assignment, solved by
// the Hungarian method) and a simplified Chronus.
//
// The algorithms work on plain data (a [Problem]: the operation time, the
// GPUs with their type and offset, the waiting jobs with a duration per
// type and a deadline) so that they can be tested and benchmarked without a
// simulator. Times are integer seconds.
//
// Cost of one GPU's sequence (Hydra, Yang et al., IEEE TC 72(8), 2023):
//
//	cost(seq) = Σ_{n ∈ seq} (C_n + f · tardiness_n)
//
// where C_n = offset + Σ_{m ≤ n} d_m is the completion time of the n-th job
// measured from the operation time (the JCT when every job arrives at the
// operation time, as in Hydra's batch workloads), offset is the remaining
// time of the job running on the GPU (0 when idle), and
// tardiness_n = max(0, now + C_n − deadline_n). Costs are kept as the exact
// pair (Σ tardiness, Σ C) and compared as f·T + C in 128-bit arithmetic, so
// f = 1e9 never loses the completion-time part to rounding.
//
// The package may import simcore (for the scheduler adapters) and the
// standard library only.
package hydra

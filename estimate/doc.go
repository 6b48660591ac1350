// Package estimate predicts the duration of a deep-learning training job
// from the first iterations it runs, and turns estimation error into the
// duration estimates that schedulers see (SPEC §14).
//
// # Series and methods
//
// A Series is the per-iteration wall time t_1 … t_n of one run (seconds,
// or normalised units for the Alibaba mini-batch data). Each method
// observes at most the first P iterations (Options.Prefix; the profiling
// budget) and estimates the total T = Σ_{i=1..n} t_i:
//
//   - Adaptive (Hydra's adaptive sampling): δ_i = |t_i − t_{i−1}| / t_{i−1}
//     for i ≥ 2; the series is stable once δ < γ for k consecutive
//     iterations, δ_m … δ_{m+k−1}. The first stable iteration is s = m − 1
//     (t_{m−1} is the first time its successor matches); the i_b = s − 1
//     iterations before it are the cold start and take t_b. Then i_s
//     iterations from s on are sampled, taking t_s, and
//     T̂ = t_b + (n − i_b)·t_s/i_s.
//     Fallback: when no run of k small δ occurs within the prefix the
//     series never stabilised where the method could see it; the last i_s
//     iterations of the prefix are then taken as the sample (i_b = P − i_s)
//     and the result is marked Fallback.
//   - Head: T̂ = n·(Σ_{i=1..h} t_i)/h.
//   - Random: h distinct iterations drawn uniformly from 1..P with a seeded
//     generator, T̂ = n · (mean of the draws).
//
// Each result carries its overhead: the iterations the job had to run for
// the method to see what it used (for random sampling, up to the largest
// index drawn) and their total time.
//
// Readers parse the Chronus per-iteration CSV (`iteration,iter_time_s`,
// file name `<family>_arch_<model>_gpu_<N>.csv`) and the Alibaba
// mini-batch CSV (`,worker,gpu,time,batch_time_norm`). A Cache keyed by
// (model, config, GPU type, GPU count) reuses estimates of recurring jobs
// and counts its hits.
//
// # Estimates for scheduling
//
// FillNoise and FillEmpirical set simcore.Job.Estimate on an instance:
// d̂_j = max(1, round(d_j·f_j)) with f_j drawn from a multiplicative noise
// model (lognormal, uniform) or from the empirical distribution of
// 1 + error of a method measured on real series. Draws are reproducible
// from a seed and the instance name.
//
// Imports: the standard library, internal/* and simcore (for Job.Estimate);
// no other evogp package.
package estimate

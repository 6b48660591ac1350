// Package formula turns a priority formula into a scheduler's ranking and
// reads the formula a learner run saved: Ranking (NewRanking) is the
// adapter between expr and simcore — a compiled expression over the
// terminals of expr's catalogue, each computed from a simcore.JobView
// (Features), evaluated one view at a time (Priority) or in batches
// (KeyBatch) — and Source / ReadBestInfix read a run directory's best.json
// and the time unit of its config.yaml.
//
// It is what evaluating a saved policy needs, so experiment's eval path
// and the learner both use it, and it must not import learn (nor
// experiment, reports or cmd): it imports expr, simcore, configs and
// internal packages only (internal/archtest).
package formula

// Package policies is the one registry of scheduling policies: simcore's
// built-ins (user and mct allocation, the rankings, the placers, the
// paper's baselines), the evo and mct-all allocators of simcore/evo, the
// rule allocator of simcore/rule with this project's own baseline
// wait-first (rule(m, scope all) + 0 − u·q + best fit), and the
// Hydra-model schedulers of hydra, each registered once by its own
// package. experiment, learn and the command layer resolve every scheduler
// spec here, and help texts and shell completion list what it holds
// (List), so a new policy appears everywhere by registering once. It also
// holds the grammar of a scheduler list's entries, LABEL=SOURCE with its
// scheduler:, run: and formula: prefixes (ParseEntry, SourceReading);
// what a SOURCE file holds is read elsewhere (formula).
//
// It may import simcore, simcore/..., hydra/... and internal/...; it must
// not import learn, experiment, reports or the command layer
// (internal/archtest).
package policies

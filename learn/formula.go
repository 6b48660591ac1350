package learn

import (
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
)

// The formula ranking lives in package formula, where evaluating a saved
// policy finds it without importing the learner; these names keep learn's
// code as it reads.

// FormulaRanking is formula.Ranking: a compiled expression as a
// simcore.Ranking.
type FormulaRanking = formula.Ranking

// NewFormulaRanking is formula.NewRanking.
func NewFormulaRanking(t *expr.Tree, seconds bool) FormulaRanking {
	return formula.NewRanking(t, seconds)
}

// NoDeadlineSlack is formula.NoDeadlineSlack, the slack s in hours of a
// job without a deadline.
const NoDeadlineSlack = formula.NoDeadlineSlack

// SupportedTerminals is formula.SupportedTerminals.
func SupportedTerminals() expr.Terminals { return formula.SupportedTerminals() }

// CheckTerminals is formula.CheckTerminals.
func CheckTerminals(t *expr.Tree, allowed expr.Terminals) error {
	return formula.CheckTerminals(t, allowed)
}

// feature computes one terminal's value for a job (formula.Feature).
type feature = formula.Feature

// features are formula.Features, every terminal's feature by name.
func features() map[string]feature { return formula.Features() }

// clusterState are the cluster-state terminals (formula.ClusterState).
const clusterState = formula.ClusterState

// waitInvariant are the terminals that do not change while a job waits
// (formula.WaitInvariant).
func waitInvariant() expr.Terminals { return formula.WaitInvariant() }

// slot is one terminal a recording reads: where to store it and how to
// compute it.
type slot struct {
	op expr.Op
	fn feature
}

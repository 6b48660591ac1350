package reports

import "github.com/evogp/evogp/internal/stats"

// Wilcoxon is the paired signed-rank test of internal/stats (shared with
// learn, which must not import reports).
type Wilcoxon = stats.Wilcoxon

// ExactMaxN is the largest n for which the exact null distribution is used.
const ExactMaxN = stats.ExactMaxN

// WilcoxonSignedRank tests the paired samples x and y; see stats.Wilcoxon.
func WilcoxonSignedRank(x, y []float64) (Wilcoxon, error) { return stats.WilcoxonSignedRank(x, y) }

// midRanks ranks v ascending from 1, ties sharing their mid-rank.
func midRanks(v []float64) (ranks []float64, ties []int) { return stats.MidRanks(v) }

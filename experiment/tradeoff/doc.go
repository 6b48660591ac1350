// Package tradeoff is `evogp figure tradeoff`: from one or more collected
// ω sweeps (their seeds pooled per ω), the test-set figure of AvgJCT
// against MaxQT (reports.TradeoffFrontPlot) and, beside it, a booktabs
// LaTeX table of every point's domain-simplified formulas with its test
// metrics and the baselines' (internal/latex).
//
// It reads sweep directories through experiment and draws through
// reports; it must not import learn (the formulas come from best.json
// through formula) or cmd.
package tradeoff

// Package latex lays out exported formulas and tables as LaTeX that
// pastes into a paper as it is: a complete equation or align block, a
// booktabs table, or a standalone document that compiles on its own
// (Standalone), and Check, a small structural parser the tests use to
// prove that output is well formed without running TeX.
//
// It formats layout only: the math inside a line (per-node notation) is
// the caller's, from expr. It must not import any other evogp package.
package latex

// Command evogp learns scheduling policies for deep-learning training jobs on
// GPU clusters by genetic programming, and simulates, evaluates and reports
// them. Run `evogp --help` for the commands, `evogp man` for the manual page
// and `evogp completion bash|zsh|fish` for shell completion.
//
// The command layer parses flags and arguments, calls the packages that do
// the work (experiment for evaluation, the pressure study, sweeps and
// learning runs; datasets, expr, reports and learn directly where a command
// is a single call) and formats their results. It holds no experiment logic.
//
// # Imports
//
// cmd/evogp may import any evogp package; no package imports it.
// internal/archtest enforces the rules of every package.
package main

// Package yamlerr corrects the line numbers in syntax errors of
// go.yaml.in/yaml/v3, so that a bad YAML file is reported at the line that
// holds the problem.
//
// The decoder reports scanner errors (a tab, an unterminated string) at
// the right 1-based line, but parser errors (an unclosed "[" or "{", a
// missing key) at a 0-based line — one too early, and with no line at all
// on the first line. Fix recognises the parser's messages and adds the
// missing one.
//
// # Imports
//
// yamlerr imports only the standard library; no evogp package
// (internal/archtest enforces the rules of every package).
package yamlerr

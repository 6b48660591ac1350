// Package texttable prints plain-text tables for terminals: rows of cells
// as columns two spaces apart, the first and last columns left-aligned and
// the ones between right-aligned (numbers), widths counted in runes so that
// cells such as "≥" or "→" line up.
//
// # Imports
//
// texttable imports only the standard library; no evogp package
// (internal/archtest enforces the rules of every package).
package texttable

// Package progress reports the progress of long work: a progress bar
// (progressbar/v3) when stderr is a terminal, plain periodic log/slog lines
// otherwise, so CI logs stay readable.
//
// # Imports
//
// progress imports only the standard library and third-party modules; no
// evogp package (internal/archtest enforces the rules of every package).
package progress

// Package parallel runs independent, indexed pieces of work on a pool of
// goroutines. Results are written by index, so their order never depends on
// the number of workers.
//
// # Imports
//
// parallel imports only the standard library and third-party modules; no
// evogp package (internal/archtest enforces the rules of every package).
package parallel

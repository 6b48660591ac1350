// Package signalrun runs a command so that the first SIGINT or SIGTERM
// cancels its context (the command stops cleanly, writing its checkpoint)
// and a second one has its default effect, and turns the outcome into the
// shell's exit status.
//
// # Imports
//
// signalrun imports only the standard library; no evogp package
// (internal/archtest enforces the rules of every package).
package signalrun

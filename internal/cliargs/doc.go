// Package cliargs handles the words of a command line that the flag
// parser leaves alone: flags written after the positional arguments, and
// the candidates shell completion offers for the word being typed, with
// the completion scripts that ask for them. It knows no command of evogp
// and no flag library; the command layer passes it names and callbacks.
//
// # Imports
//
// cliargs imports only the standard library; no evogp package
// (internal/archtest enforces the rules of every package).
package cliargs

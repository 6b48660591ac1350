// Package atomicio writes files and directories so that a reader never sees
// a half-written result: content goes to a temporary sibling and is renamed
// into place only when complete.
//
// # Imports
//
// atomicio imports only the standard library and third-party modules; no
// evogp package (internal/archtest enforces the rules of every package).
package atomicio

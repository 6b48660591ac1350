// Package profiling writes Go profiles of a whole command for `go tool
// pprof`: a CPU profile, buffered in memory while the command runs and
// written atomically when it ends (an interrupted command leaves a complete
// profile or none), and a heap profile of what is live at the end.
//
// # Imports
//
// profiling imports only internal/atomicio and the standard library
// (internal/archtest).
package profiling

// Package tracefiles lets tests find the shared real traces, which live
// beside the repository (../shared/traces) and are never copied into it.
//
// # Imports
//
// tracefiles imports only the standard library and third-party modules; no
// evogp package (internal/archtest enforces the rules of every package).
package tracefiles

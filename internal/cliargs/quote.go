package cliargs

import "strings"

// ShellQuote quotes s as one word for a POSIX shell: in single quotes,
// each single quote of s closing the quotes, escaped, and opening them
// again.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

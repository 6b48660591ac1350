package cliargs

import "strings"

// Candidates are the words shell completion offers when last is the word
// before the one being completed: values(flag) after a flag that has
// values, the command's flags (as --name) after any other dash word, and
// its subcommands otherwise. values returns nil for a flag without a list.
func Candidates(last string, values func(flag string) []string, flags, subcommands []string) []string {
	if !strings.HasPrefix(last, "-") {
		return subcommands
	}
	if v := values(strings.TrimLeft(last, "-")); v != nil {
		return v
	}
	words := make([]string, 0, len(flags))
	for _, f := range flags {
		words = append(words, "--"+f)
	}
	return words
}

// CompletedAfter is the word before the one being completed in the words
// of an invocation that asks for bash completion (its last word is
// --generate-bash-completion), "" otherwise.
func CompletedAfter(args []string) string {
	if n := len(args); n >= 2 && args[n-1] == "--generate-bash-completion" {
		return args[n-2]
	}
	return ""
}

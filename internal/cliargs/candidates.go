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

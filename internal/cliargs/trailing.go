package cliargs

import (
	"fmt"
	"strings"
)

// ApplyTrailing applies the words of args that isFlag accepts (with their
// values) as flags of command and returns the other words; the words after
// "--" are all positional. flags maps every name of the command's flags to
// whether it is boolean. "--name value", "--name=value" and, for a boolean
// flag, "--name" (meaning true) are understood. set is called for each flag
// in order; the first error (an unknown flag, a missing value, or set's
// error) ends the walk.
func ApplyTrailing(command string, args []string, flags map[string]bool, isFlag func(string) bool, set func(name, value string) error) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !isFlag(a) {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		isBool, known := flags[name]
		if !known {
			return nil, fmt.Errorf("%s: unknown flag %s (see evogp %s --help)", command, a, command)
		}
		if !hasVal {
			if isBool {
				val = "true"
			} else {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("%s: flag %s needs a value", command, a)
				}
				i++
				val = args[i]
			}
		}
		if err := set(name, val); err != nil {
			return nil, fmt.Errorf("%s: flag %s: %w", command, a, err)
		}
	}
	return pos, nil
}

// IsDashWord reports whether a starts with a dash and is not the lone "-"
// (which names standard input): the words a command with path arguments
// reads as flags.
func IsDashWord(a string) bool { return strings.HasPrefix(a, "-") && a != "-" }

// LooksLikeFlag reports whether a is -x or --name with a letter after the
// dashes: the words a formula argument reads as flags (a lone "-" or "-2"
// is formula text).
func LooksLikeFlag(a string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	if name == a || name == "" {
		return false
	}
	r := name[0]
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

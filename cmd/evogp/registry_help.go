package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// flagValues are the values shell completion offers after a flag, each
// list read from the table that defines it: the policy registry and
// simcore's objective kinds.
func flagValues(flag string) []string {
	switch flag {
	case "scheduler", "schedulers":
		return policies.List().Specs()
	case "objective":
		return simcore.ObjectiveKindNames()
	}
	return nil
}

// completeFlagValues sets, on every command below cmds, a completion that
// offers flagValues after a flag that has them, the command's flags when
// the word being completed starts with a dash, and its subcommands
// otherwise. The words typed so far are the invocation's (setInvocation),
// not os.Args.
func completeFlagValues(cmds []*cli.Command) {
	for _, cmd := range cmds {
		completeFlagValues(cmd.Subcommands)
		cmd.BashComplete = func(c *cli.Context) {
			args, _ := c.App.Metadata["args"].([]string)
			last := ""
			if n := len(args); n >= 2 && args[n-1] == "--generate-bash-completion" {
				last = args[n-2]
			}
			var words []string
			switch values := flagValues(strings.TrimLeft(last, "-")); {
			case strings.HasPrefix(last, "-") && values != nil:
				words = values
			case strings.HasPrefix(last, "-"):
				for _, f := range cmd.Flags {
					words = append(words, "--"+f.Names()[0])
				}
			default:
				for _, sub := range cmd.Subcommands {
					if !sub.Hidden {
						words = append(words, sub.Name)
					}
				}
			}
			if len(words) > 0 {
				fmt.Fprintln(c.App.Writer, strings.Join(words, "\n"))
			}
		}
	}
}

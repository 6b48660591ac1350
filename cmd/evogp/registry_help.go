package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/internal/cliargs"
	"github.com/evogp/evogp/policies"
)

// completeFlagValues sets, on every command below cmds, a completion that
// prints cliargs.Candidates for the word typed before the one being
// completed, with the values completionValues lists. The words
// typed so far are the invocation's (setInvocation), not os.Args.
func completeFlagValues(cmds []*cli.Command) {
	for _, cmd := range cmds {
		completeFlagValues(cmd.Subcommands)
		cmd.BashComplete = func(c *cli.Context) {
			var flags, subcommands []string // read now: the flag library adds --help when it runs
			for _, f := range cmd.Flags {
				flags = append(flags, f.Names()[0])
			}
			for _, sub := range cmd.Subcommands {
				if !sub.Hidden {
					subcommands = append(subcommands, sub.Name)
				}
			}
			args, _ := c.App.Metadata["args"].([]string)
			if words := cliargs.Candidates(cliargs.CompletedAfter(args), completionValues, flags, subcommands); len(words) > 0 {
				fmt.Fprintln(c.App.Writer, strings.Join(words, "\n"))
			}
		}
	}
}

// completionValues are the values a flag completes to: the embedded
// config names after --config, and policies.CompletionValues otherwise
// (schedulers, objectives).
func completionValues(flag string) []string {
	if flag == "config" {
		return configs.Names()
	}
	return policies.CompletionValues(flag)
}

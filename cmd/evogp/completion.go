package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/internal/cliargs"
)

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		UsageText: "evogp completion bash|zsh|fish\n\n" +
			"Examples:\n" +
			"   source <(evogp completion bash)                      # this shell\n" +
			"   evogp completion bash > ~/.local/share/bash-completion/completions/evogp\n" +
			"   evogp completion fish > ~/.config/fish/completions/evogp.fish",
		Action: func(c *cli.Context) error {
			s, err := cliargs.CompletionScript(c.Args().Slice(), c.App.ToFishCompletion)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, s)
			return err
		},
	}
}

// manSection is the manual section of `evogp man`: user commands.
const manSection = "1"

func manCommand() *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print the evogp(" + manSection + ") manual page (roff), generated from the commands and flags",
		UsageText: "evogp man > evogp." + manSection + " && man ./evogp." + manSection,
		Action: func(c *cli.Context) error {
			// Section 1, user commands, as the help says (urfave/cli's ToMan writes 8).
			s, err := cliargs.ManPage(c.Args().Slice(), func() (string, error) { return c.App.ToManWithSection(1) })
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, s)
			return err
		},
	}
}

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

func manCommand() *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print the evogp(1) manual page (roff), generated from the commands and flags",
		UsageText: "evogp man > evogp.1 && man ./evogp.1",
		Action: func(c *cli.Context) error {
			s, err := cliargs.ManPage(c.Args().Slice(), c.App.ToMan)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, s)
			return err
		},
	}
}

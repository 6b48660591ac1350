package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// bashCompletion asks evogp itself for the candidates of the words typed
// so far (urfave/cli answers --generate-bash-completion with one candidate
// per line). zsh runs it through bashcompinit.
const bashCompletion = `# evogp bash completion: source this file, or put it in
# /etc/bash_completion.d/ (zsh: autoload -U +X bashcompinit && bashcompinit first).
_evogp_complete() {
  local cur words
  cur="${COMP_WORDS[COMP_CWORD]}"
  if [[ "$cur" == -* ]]; then
    words=$("${COMP_WORDS[@]:0:$COMP_CWORD}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    words=$("${COMP_WORDS[@]:0:$COMP_CWORD}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  if [[ ${#COMPREPLY[@]} -eq 0 ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _evogp_complete evogp
`

const zshCompletion = "autoload -U +X bashcompinit && bashcompinit\n" + bashCompletion

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
			if c.NArg() != 1 {
				return fmt.Errorf("completion: give one shell: bash, zsh or fish")
			}
			switch sh := c.Args().First(); sh {
			case "bash":
				_, err := fmt.Fprint(c.App.Writer, bashCompletion)
				return err
			case "zsh":
				_, err := fmt.Fprint(c.App.Writer, zshCompletion)
				return err
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return fmt.Errorf("completion fish: %w", err)
				}
				_, err = fmt.Fprint(c.App.Writer, s)
				return err
			default:
				return fmt.Errorf("completion: unknown shell %q: want bash, zsh or fish", sh)
			}
		},
	}
}

func manCommand() *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print the evogp(1) manual page (roff), generated from the commands and flags",
		UsageText: "evogp man > evogp.1 && man ./evogp.1",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("man: unexpected argument %q", c.Args().First())
			}
			s, err := c.App.ToMan()
			if err != nil {
				return fmt.Errorf("man: %w", err)
			}
			_, err = fmt.Fprint(c.App.Writer, s)
			return err
		},
	}
}

package cliargs

import "fmt"

// bashCompletion asks the program itself for the candidates of the words
// typed so far (the program answers --generate-bash-completion with one
// candidate per line). zsh runs it through bashcompinit.
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

// CompletionScript is the completion script of `evogp completion` for
// the shell named by args (exactly one of bash, zsh, fish); fish's script
// is generated from the command tree by fish.
func CompletionScript(args []string, fish func() (string, error)) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("completion: give one shell: bash, zsh or fish")
	}
	switch sh := args[0]; sh {
	case "bash":
		return bashCompletion, nil
	case "zsh":
		return zshCompletion, nil
	case "fish":
		s, err := fish()
		if err != nil {
			return "", fmt.Errorf("completion fish: %w", err)
		}
		return s, nil
	default:
		return "", fmt.Errorf("completion: unknown shell %q: want bash, zsh or fish", sh)
	}
}

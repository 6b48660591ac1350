package policies

import "github.com/evogp/evogp/simcore"

// CompletionValues are the values shell completion offers after the flag
// named flag, each list read from the table that defines it: every spec of
// the registry (List().Specs()) after --scheduler and --schedulers, and
// simcore's objective kinds after --objective; nil for any other flag.
func CompletionValues(flag string) []string {
	switch flag {
	case "scheduler", "schedulers":
		return List().Specs()
	case "objective":
		return simcore.ObjectiveKindNames()
	}
	return nil
}

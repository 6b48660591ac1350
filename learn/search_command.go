package learn

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evogp/evogp/configs"
)

// SearchHelp describes `evogp search`: what it enumerates, how it merges
// trees and how it scores them.
const SearchHelp = "Enumerates every tree up to --depth over gp.terminals and + − × %, merges trees with the\n" +
	"same simplified form and then with the same behaviour (the order they put jobs in on\n" +
	"gp.dedup_sample scheduling decisions recorded under SRSF on the validation instances),\n" +
	"scores one smallest formula per behaviour on the first --screen validation instances, the\n" +
	"best --keep of them on the whole validation set, and prints the --top ones against the\n" +
	"best baseline (better/tied/worse per instance). Scores are mean objective ÷ SRSF's.\n\n" +
	"With --routing it enumerates routing trees R instead (SPEC §16) over --terminals (default\n" +
	"gp.routing_terminals), each scored as rule(R, --scope) + the fixed --ranking + gp.placer;\n" +
	"trees merge by simplified form only (no decision sample of routing choices)."

// SearchCommand is what `evogp search` was given: the config (an embedded
// name or a YAML file) with its key=value overrides, the search's sizes,
// and for a search over routing trees the routing terminals, the fixed
// ranking and the scope. Given reports whether a flag was given by name
// (nil: none was).
type SearchCommand struct {
	Config    string
	Overrides []string
	Settings  SearchSettings
	Routing   bool
	Terminals string // comma-separated; "" = gp.routing_terminals
	Ranking   string
	Scope     string
	Top       int
	Given     func(flag string) bool
}

// RunSearchCommand loads the config and its validation set, runs Search and
// writes the report's --top rows to w.
func RunSearchCommand(ctx context.Context, c SearchCommand, w io.Writer) error {
	cfg, err := configs.Load(c.Config)
	if err != nil {
		return err
	}
	if cfg, err = cfg.Override(c.Overrides...); err != nil {
		return err
	}
	_, val, err := LoadData(cfg)
	if err != nil {
		return err
	}
	settings := c.Settings
	settings.Workers = cfg.GP.Workers
	if c.Routing {
		rs := &RoutingSearch{Ranking: c.Ranking, Scope: c.Scope}
		if c.Terminals != "" {
			rs.Terminals = strings.Split(c.Terminals, ",")
		}
		settings.Routing = rs
	} else if c.Given != nil {
		for _, f := range []string{"terminals", "ranking", "scope"} {
			if c.Given(f) {
				return fmt.Errorf("search: --%s is for a search over routing trees: add --routing", f)
			}
		}
	}
	rep, err := Search(ctx, cfg, val, settings)
	if err != nil {
		if strings.HasPrefix(err.Error(), "search: ") {
			return err // Search's errors name the command already
		}
		return fmt.Errorf("search: %w", err)
	}
	return rep.WriteText(w, c.Top)
}

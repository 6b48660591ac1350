package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/learn"
)

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "score every distinct small formula on the validation set: does GP miss easy winners?",
		ArgsUsage: "[key=value ...]",
		UsageText: "evogp search [--config NAME|FILE] [--depth 3] [--top 15] [--screen 2] [--keep 200] [key=value ...]\n" +
			"evogp search --routing [--terminals W,h,...] [--ranking fifo|srsf|...|FORMULA] [--scope arrivals|all] [--depth 2] ...\n\n" +
			"Examples:\n" +
			"   evogp search                                  # quick config, d q u g, depth ≤ 3\n" +
			"   evogp search --depth 2 gp.terminals=d,q,u,g,a,w,r\n" +
			"   evogp search --routing --ranking fifo --depth 2                # routing trees over gp.routing_terminals\n" +
			"   evogp search --routing --terminals W,x,o,h --scope all --ranking srsf",
		Description: "Enumerates every tree up to --depth over gp.terminals and + − × %, merges trees with the\n" +
			"same simplified form and then with the same behaviour (the order they put jobs in on\n" +
			"gp.dedup_sample scheduling decisions recorded under SRSF on the validation instances),\n" +
			"scores one smallest formula per behaviour on the first --screen validation instances, the\n" +
			"best --keep of them on the whole validation set, and prints the --top ones against the\n" +
			"best baseline (better/tied/worse per instance). Scores are mean objective ÷ SRSF's.\n\n" +
			"With --routing it enumerates routing trees R instead (SPEC §16) over --terminals (default\n" +
			"gp.routing_terminals), each scored as rule(R, --scope) + the fixed --ranking + gp.placer;\n" +
			"trees merge by simplified form only (no decision sample of routing choices).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "quick", Usage: "embedded config name (" + strings.Join(configs.Names(), ", ") + ") or YAML file"},
			&cli.IntFlag{Name: "depth", Value: 3, Usage: "largest tree depth (a leaf has depth 1), 1..4"},
			&cli.IntFlag{Name: "top", Value: 15, Usage: "formulas printed"},
			&cli.IntFlag{Name: "screen", Value: 2, Usage: "validation instances of the first stage"},
			&cli.IntFlag{Name: "keep", Value: 200, Usage: "behaviours scored on the whole validation set"},
			&cli.BoolFlag{Name: "routing", Usage: "enumerate routing trees (the rule allocator) with a fixed ranking"},
			&cli.StringFlag{Name: "terminals", Usage: "with --routing: routing terminals, comma-separated (default gp.routing_terminals)"},
			&cli.StringFlag{Name: "ranking", Value: "fifo", Usage: "with --routing: the fixed ranking, fifo, srsf, lyra, sjf, srtf or a ranking formula"},
			&cli.StringFlag{Name: "scope", Usage: "with --routing: arrivals or all (default gp.scope, else arrivals)"},
		},
		Action: runSearch,
	}
}

func runSearch(c *cli.Context) error {
	cfg, err := configs.Load(c.String("config"))
	if err != nil {
		return err
	}
	if cfg, err = cfg.Override(c.Args().Slice()...); err != nil {
		return err
	}
	_, val, err := learn.LoadData(cfg)
	if err != nil {
		return err
	}
	settings := learn.SearchSettings{
		Depth: c.Int("depth"), Screen: c.Int("screen"), Keep: c.Int("keep"), Workers: cfg.GP.Workers,
	}
	if c.Bool("routing") {
		rs := &learn.RoutingSearch{Ranking: c.String("ranking"), Scope: c.String("scope")}
		if s := c.String("terminals"); s != "" {
			rs.Terminals = strings.Split(s, ",")
		}
		settings.Routing = rs
	} else {
		for _, f := range []string{"terminals", "ranking", "scope"} {
			if c.IsSet(f) {
				return fmt.Errorf("search: --%s is for a search over routing trees: add --routing", f)
			}
		}
	}
	rep, err := learn.Search(c.Context, cfg, val, settings)
	if err != nil {
		if strings.HasPrefix(err.Error(), "search: ") {
			return err // learn.Search's errors name the command already
		}
		return fmt.Errorf("search: %w", err)
	}
	return rep.WriteText(c.App.Writer, c.Int("top"))
}

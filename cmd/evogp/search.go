package main

import (
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
		Description: learn.SearchHelp,
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
	return learn.RunSearchCommand(c.Context, learn.SearchCommand{Config: c.String("config"), Overrides: c.Args().Slice(),
		Settings: learn.SearchSettings{Depth: c.Int("depth"), Screen: c.Int("screen"), Keep: c.Int("keep")},
		Routing:  c.Bool("routing"), Terminals: c.String("terminals"), Ranking: c.String("ranking"), Scope: c.String("scope"),
		Top: c.Int("top"), Given: c.IsSet}, c.App.Writer)
}

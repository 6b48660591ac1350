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
		UsageText: "evogp search [--config NAME|FILE] [--depth 3] [--top 15] [--screen 2] [--keep 200] [key=value ...]\n\n" +
			"Examples:\n" +
			"   evogp search                                  # quick config, d q u g, depth ≤ 3\n" +
			"   evogp search --depth 2 gp.terminals=d,q,u,g,a,w,r",
		Description: "Enumerates every tree up to --depth over gp.terminals and + − × %, merges trees with the\n" +
			"same simplified form and then with the same behaviour (the order they put jobs in on\n" +
			"gp.dedup_sample scheduling decisions recorded under SRSF on the validation instances),\n" +
			"scores one smallest formula per behaviour on the first --screen validation instances, the\n" +
			"best --keep of them on the whole validation set, and prints the --top ones against the\n" +
			"best baseline (better/tied/worse per instance). Scores are mean objective ÷ SRSF's.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "quick", Usage: "embedded config name (" + strings.Join(configs.Names(), ", ") + ") or YAML file"},
			&cli.IntFlag{Name: "depth", Value: 3, Usage: "largest tree depth (a leaf has depth 1), 1..4"},
			&cli.IntFlag{Name: "top", Value: 15, Usage: "formulas printed"},
			&cli.IntFlag{Name: "screen", Value: 2, Usage: "validation instances of the first stage"},
			&cli.IntFlag{Name: "keep", Value: 200, Usage: "behaviours scored on the whole validation set"},
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
	rep, err := learn.Search(c.Context, cfg, val, learn.SearchSettings{
		Depth: c.Int("depth"), Screen: c.Int("screen"), Keep: c.Int("keep"), Workers: cfg.GP.Workers,
	})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return rep.WriteText(c.App.Writer, c.Int("top"))
}

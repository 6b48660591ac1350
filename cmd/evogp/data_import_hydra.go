package main

import (
	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/datasets/hydracase"
	"github.com/evogp/evogp/experiment"
)

// dataImportHydraCommand is `evogp data import hydra` (SPEC §13).
func dataImportHydraCommand() *cli.Command {
	return &cli.Command{
		Name:  "hydra",
		Usage: "import a test case of Hydra's public evaluation (,job_name,norm_job_submit_time,ddl,<type columns…>)",
		UsageText: "evogp data import hydra --in CASES.csv --out DIR --gpus A100=15,V100=15,GTX2080Ti=15 [--jobs N] [--ddl relative|absolute] [--format parquet|csv]\n\n" +
			experiment.DataImportHydraHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "in", Required: true, Usage: "the case CSV file"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "new output directory (must not exist or be empty)"},
			&cli.StringFlag{Name: "gpus", Required: true, Usage: "GPU types and counts, TYPE=N,TYPE=N,… (each a column of the file)"},
			&cli.IntFlag{Name: "jobs", Usage: "import the first N rows (default: all)"},
			&cli.StringFlag{Name: "ddl", Value: hydracase.DDLRelative, Usage: "ddl column: relative (to the submit time) or absolute"},
			&cli.StringFlag{Name: "format", Value: datasets.FormatParquet, Usage: "table format: parquet or csv"},
		},
		Action: dataImportHydra,
	}
}

func dataImportHydra(c *cli.Context) error {
	return experiment.RunDataImportHydraCommand(experiment.DataImportHydraCommand{In: c.String("in"), Out: c.String("out"),
		GPUs: c.String("gpus"), Jobs: c.Int("jobs"), DDL: c.String("ddl"), Format: c.String("format")}, c.App.Writer)
}

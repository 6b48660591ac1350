package main

import (
	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
)

// evoFlags set the evo.* keys (SPEC §11) of the schedulers whose allocator
// is evo (evo-fifo, evo-srsf, evo-gp, evo+RANK+PLACE, ...). Their defaults
// are the config's: SPEC §11's in simulate and eval, the --config file's
// in pressure. withSeed adds --seed, the run seed EVO's random stream
// derives from (pressure takes it from its config, where it also draws the
// instances).
func evoFlags(withSeed bool) flagSet {
	d := configs.Default()
	e := d.EVO
	s := flagSet{flags: []cli.Flag{
		&cli.IntFlag{Name: "evo-population", Value: e.Population, Usage: "evo.population: individuals per EVO operation (≥ 2)"},
		&cli.IntFlag{Name: "evo-generations", Value: e.Generations, Usage: "evo.generations: generations per EVO operation (≥ 0)"},
		&cli.Float64Flag{Name: "evo-mutation", Value: e.Mutation, Usage: "evo.mutation: probability r that both children mutate"},
		&cli.IntFlag{Name: "evo-stall", Value: e.Stall, Usage: "evo.stall: stop after this many generations without improvement (0 = off)"},
		&cli.IntFlag{Name: "evo-budget", Value: e.Budget, Usage: "evo.budget: at most this many evaluations per operation (0 = off, else ≥ population)"},
		&cli.StringFlag{Name: "evo-init", Value: e.Init, Usage: "evo.init: seeded (current and MCT assignments in the first population) | random (the paper)"},
		&cli.IntFlag{Name: "evo-workers", Value: e.Workers, Usage: "evo.workers: goroutines per EVO operation (0 or 1 = serial; results do not depend on it)"},
	}, keys: map[string]string{"evo-population": "evo.population", "evo-generations": "evo.generations", "evo-mutation": "evo.mutation",
		"evo-stall": "evo.stall", "evo-budget": "evo.budget", "evo-init": "evo.init", "evo-workers": "evo.workers", "seed": "seed"}}
	if withSeed {
		s.flags = append(s.flags, &cli.Uint64Flag{Name: "seed", Value: d.Seed, Usage: "run seed: EVO operation k draws from a generator seeded by (seed, k)"})
	}
	return s
}

// Command mshare measures, for a finished learn run with a routing tree
// in scope all, how many of m's what-if queries are asked twice: the
// individuals of its final population (checkpoint/state.json), or a
// random set drawn as generation 0 draws (ramped half-and-half over the
// run's terminals, plus the config's seed pairs), are simulated on the
// first training instances, and every scope-all m query is keyed by what
// its answer depends on (rule.WithQueryLog: time, cluster, Jn jobs there,
// jobs assigned there so far in rank order, the queried job and its
// place among them). It prints, per set, the queries asked, the distinct
// keys, and the share asked before — by the same individual (at another
// operation) or by another one. Issue 39's "measure first" for sharing
// m's what-ifs between individuals. A study tool:
// go run ./scripts/mshare -run DIR [-instances 5] [-random 32].
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

func main() {
	run := flag.String("run", "", "learn run directory (config.yaml, checkpoint/state.json)")
	k := flag.Int("instances", 5, "training instances to simulate")
	nRandom := flag.Int("random", 32, "random individuals (generation-0-like set; 0: none)")
	flag.Parse()
	if err := measure(*run, *k, *nRandom); err != nil {
		log.Fatal(err)
	}
}

type pair struct{ routing, ranking *expr.Tree }

func measure(dir string, k, nRandom int) error {
	cfg, err := configs.Load(runfile.ConfigPath(dir))
	if err != nil {
		return err
	}
	final, err := population(filepath.Join(dir, "checkpoint", "state.json"))
	if err != nil {
		return err
	}
	train, _, err := learn.LoadData(cfg)
	if err != nil {
		return err
	}
	opts, err := configs.SimOptions(cfg)
	if err != nil {
		return err
	}
	sets := []struct {
		name string
		inds []pair
	}{{"final population", final}}
	if nRandom > 0 {
		sets = append(sets, struct {
			name string
			inds []pair
		}{"random (generation-0-like) + seed pairs", randomSet(cfg, nRandom)})
	}
	for _, set := range sets {
		var asked, again, againOther int
		for i := range min(k, len(train)) {
			seen := map[uint64]int{} // key → first individual that asked it
			for n, ind := range set.inds {
				s, err := scheduler(cfg, ind, func(key uint64) {
					asked++
					if who, ok := seen[key]; ok {
						again++
						if who != n {
							againOther++
						}
						return
					}
					seen[key] = n
				})
				if err != nil {
					return err
				}
				if _, err := simcore.Simulate(context.Background(), &train[i], s, opts); err != nil {
					return err
				}
			}
		}
		fmt.Printf("%s (%d individuals, %d instances): %d m queries, %d asked before (%.3f), %d of them first asked by another individual (%.3f)\n",
			set.name, len(set.inds), min(k, len(train)), asked, again, float64(again)/float64(max(1, asked)), againOther, float64(againOther)/float64(max(1, asked)))
	}
	return nil
}

// population reads the checkpoint's population (routing and ranking
// trees).
func population(path string) ([]pair, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var st struct {
		State struct {
			Population []struct {
				Tree    json.RawMessage `json:"tree"`
				Routing json.RawMessage `json:"routing"`
			} `json:"population"`
		} `json:"state"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []pair
	for _, m := range st.State.Population {
		var f expr.Tree
		var r runfile.RoutingTree
		if err := json.Unmarshal(m.Tree, &f); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(m.Routing, &r); err != nil {
			return nil, err
		}
		out = append(out, pair{r.Tree, &f})
	}
	return out, nil
}

// randomSet is the config's seed pairs and n random pairs grown as
// generation 0 grows them (ramped half-and-half over the terminal sets).
func randomSet(cfg configs.Config, n int) []pair {
	var out []pair
	for i, s := range cfg.GP.SeedFormulas {
		if i < len(cfg.GP.SeedRouting) {
			out = append(out, pair{expr.Routing.MustParse(cfg.GP.SeedRouting[i]), expr.MustParse(s)})
		}
	}
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 39))
	rts, _ := expr.Routing.ParseTerminals(cfg.GP.RoutingTerminals)
	fts, _ := expr.ParseTerminals(cfg.GP.Terminals)
	rs := expr.RampedHalfAndHalf(rng, n, expr.GenSettings{Terminals: rts})
	fs := expr.RampedHalfAndHalf(rng, n, expr.GenSettings{Terminals: fts})
	for i := range n {
		out = append(out, pair{rs[i], fs[i]})
	}
	return out
}

func scheduler(cfg configs.Config, ind pair, log func(uint64)) (simcore.Scheduler, error) {
	sc, err := rule.ParseScope(cfg.GP.RoutingScope())
	if err != nil {
		return nil, err
	}
	seconds := cfg.GP.TimeUnit == "seconds"
	r, err := rule.New(rule.Params{Routing: expr.Simplify(ind.routing), Scope: sc, Seconds: seconds})
	if err != nil {
		return nil, err
	}
	var placer simcore.Placer = simcore.BestFit{}
	if cfg.GP.Placer == "roundrobin" {
		placer = simcore.RoundRobin{}
	}
	return simcore.NewListScheduler("mshare", rule.WithQueryLog(r, log), learn.NewFormulaRanking(expr.Simplify(ind.ranking), seconds), placer), nil
}

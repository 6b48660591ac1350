// Command divergence measures, for the individuals of a finished learn run
// with a routing tree (its hall of fame and the config's seed pairs), how
// much of each training simulation another individual of the set already
// simulated identically: the share of scheduling operations before the two
// schedules first differ (issue 39's "measure first" for forking a child
// from a snapshot). Two schedules are taken to differ from the earliest
// time at which any job's execution segments (start, end, cluster,
// workers) differ; the operations strictly before that time are counted as
// shared. A plan can differ earlier than anything it starts, so this is an
// upper bound of what fork-from-snapshot could skip. A study tool: go run
// ./scripts/divergence -run DIR [-instances 5].
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"path/filepath"
	"slices"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

func main() {
	run := flag.String("run", "", "learn run directory (config.yaml, hall_of_fame.csv)")
	k := flag.Int("instances", 5, "training instances to simulate")
	flag.Parse()
	if err := measure(*run, *k); err != nil {
		log.Fatal(err)
	}
}

type pair struct{ routing, ranking string }

func measure(dir string, k int) error {
	cfg, err := configs.Load(filepath.Join(dir, runfile.ConfigFile))
	if err != nil {
		return err
	}
	hall, err := runfile.ReadHall(filepath.Join(dir, runfile.HallFile))
	if err != nil {
		return err
	}
	if hall == nil || !hall.Routing {
		return fmt.Errorf("%s: no %s of a two-tree run", dir, runfile.HallFile)
	}
	var inds []pair
	for _, r := range hall.Rows {
		inds = append(inds, pair{r[hall.Column("routing")], r[hall.Column("formula")]})
	}
	for i, s := range cfg.GP.SeedFormulas {
		if i < len(cfg.GP.SeedRouting) {
			inds = append(inds, pair{cfg.GP.SeedRouting[i], s})
		}
	}
	train, _, err := learn.LoadData(cfg)
	if err != nil {
		return err
	}
	opts, err := configs.SimOptions(cfg)
	if err != nil {
		return err
	}
	opts.RecordSegments = true
	var shared, total float64
	var ops, opsTotal int
	for i := range min(k, len(train)) {
		inst := &train[i]
		var times []int64
		opts.OnOperation = func(t int64, _, _ int) { times = append(times, t) }
		var segs [][]simcore.Segment
		for _, p := range inds {
			r, err := expr.Routing.Parse(p.routing)
			if err != nil {
				return err
			}
			s, err := learn.LearnedScheduler(cfg, r, expr.MustParse(p.ranking))
			if err != nil {
				return err
			}
			times = times[:0]
			res, err := simcore.Simulate(context.Background(), inst, s, opts)
			if err != nil {
				return err
			}
			segs = append(segs, canonical(res.Segments))
			ops = len(times)
		}
		opTimes := slices.Clone(times)
		for a := range segs {
			best := 0
			for b := range segs {
				if b == a {
					continue
				}
				d := firstDifference(segs[a], segs[b])
				n, _ := slices.BinarySearch(opTimes, d) // operations strictly before d
				best = max(best, n)
			}
			shared += float64(best)
			total += float64(ops)
		}
		opsTotal += ops
		fmt.Printf("%s: %d operations, %d individuals\n", inst.Name, ops, len(segs))
	}
	fmt.Printf("share of operations before the first difference from the closest other individual: %.3f (%d instances, %d individuals)\n", shared/total, min(k, len(train)), len(inds))
	return nil
}

// canonical sorts segments by (job, start).
func canonical(s []simcore.Segment) []simcore.Segment {
	s = slices.Clone(s)
	slices.SortFunc(s, func(a, b simcore.Segment) int {
		if a.Job != b.Job {
			return a.Job - b.Job
		}
		return int(a.Start - b.Start)
	})
	return s
}

// firstDifference is the earliest time at which the two schedules differ:
// for a segment of one that the other lacks, its start — or, when the
// other has a segment of the same job with the same start, cluster and
// workers (only the end differs: a later preemption), the earlier end
// (math.MaxInt64 when the schedules are identical).
func firstDifference(a, b []simcore.Segment) int64 {
	d := int64(math.MaxInt64)
	full := func(s simcore.Segment) string { return fmt.Sprint(s.Job, s.Cluster, s.Start, s.End, s.Workers) }
	head := func(s simcore.Segment) string { return fmt.Sprint(s.Job, s.Cluster, s.Start, s.Workers) }
	scan := func(x, y []simcore.Segment) {
		fy, hy := map[string]bool{}, map[string]int64{}
		for _, s := range y {
			fy[full(s)], hy[head(s)] = true, s.End
		}
		for _, s := range x {
			if fy[full(s)] {
				continue
			}
			if end, ok := hy[head(s)]; ok {
				d = min(d, s.End, end)
			} else {
				d = min(d, s.Start)
			}
		}
	}
	scan(a, b)
	scan(b, a)
	return d
}

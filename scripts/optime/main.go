// Command optime measures a scheduler's CPU time per scheduling operation
// on a dataset, inside one process: the simulations alone (dataset read
// and process start excluded), user + system CPU of the process divided
// by the operations of every instance (issue 39's "time per operation",
// measured alike for the rule allocator and EVO). A study tool:
//
//	go run ./scripts/optime -d DIR[,DIR...] -s wait-first [-n 2]
//	go run ./scripts/optime -d DIR -r "m + h" -f "0 - u*q"        # rule(R, all)+formula f+bestfit, hours
//	go run ./scripts/optime -d DIR -s evo-srsf                      # EVO with population 50 × 50 generations
//
// It prints the operations, wall and CPU time, CPU µs per operation and
// the sum of the objectives (a check that two builds scheduled alike).
// Several schedulers measured in one process, one after the other, on the
// same load (-s takes a comma-separated list; -r/-f adds "learned"; EVO
// runs -evo-n repetitions, as it is slow), print each one's CPU per
// operation as a share of EVO's when an evo-* scheduler is in the list:
//
//	go run ./scripts/optime -d DIR -r "m + h" -f "0 - u*q" -s liquid,wait-first,evo-srsf -n 2 -evo-n 1
//
// -study (with -r alone) also prints how much of each operation's
// decisions repeat the previous operation's (study.go): the upper bound of
// what reuse across operations could skip.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
	"github.com/evogp/evogp/simcore/rule"
)

func main() {
	dirs := flag.String("d", "", "comma-separated dataset directories")
	spec := flag.String("s", "wait-first", "named scheduler (evo-* run with population 50 × 50 generations)")
	routing := flag.String("r", "", "routing tree: simulate rule(R, scope all)+formula+bestfit instead of -s")
	prio := flag.String("f", "", "the priority formula with -r")
	reps := flag.Int("n", 1, "repetitions of the whole dataset")
	evoReps := flag.Int("evo-n", 0, "repetitions for evo-* schedulers in a list (0: -n)")
	prof := flag.String("cpu", "", "write a CPU profile to this file")
	study := flag.Bool("study", false, "with -r alone: also print how much of each operation's decisions repeat the previous operation's (rule.WithDecisionLog)")
	flag.Parse()
	if *study {
		if *routing == "" || strings.Contains(*spec, ",") {
			log.Fatal("-study takes -r and no list in -s")
		}
	}
	if err := runAll(*dirs, *spec, *routing, *prio, *reps, *evoReps, *prof, *study); err != nil {
		log.Fatal(err)
	}
}

// runAll measures the learned pair (if -r is set) and every scheduler of
// the list in spec, in this process, one after the other.
func runAll(dirs, spec, routing, prio string, reps, evoReps int, prof string, study bool) error {
	if !strings.Contains(spec, ",") { // one scheduler: -s, or the learned pair when -r is set
		var rs *reuseStudy
		if study {
			rs = newReuseStudy()
		}
		_, err := run(dirs, spec, routing, prio, reps, prof, rs)
		if rs != nil && err == nil {
			rs.report(os.Stdout)
		}
		return err
	}
	if prof != "" {
		return fmt.Errorf("-cpu takes one scheduler")
	}
	names := strings.Split(spec, ",")
	if routing != "" {
		names = append([]string{"learned"}, names...)
	}
	perOp := map[string]float64{}
	evoName := ""
	for _, name := range names {
		n := reps
		if strings.HasPrefix(name, "evo-") {
			evoName = name
			if evoReps > 0 {
				n = evoReps
			}
		}
		r := ""
		if name == "learned" {
			r = routing
		}
		us, err := run(dirs, name, r, prio, n, "", nil)
		if err != nil {
			return err
		}
		perOp[name] = us
	}
	if evoName != "" {
		for _, name := range names {
			if name != evoName {
				fmt.Printf("%s ÷ %s = %.2f %%\n", name, evoName, 100*perOp[name]/perOp[evoName])
			}
		}
	}
	return nil
}

// run measures one scheduler and returns its CPU µs per operation. With a
// study (-study), the learned rule logs its decisions to it; the
// simulations run one after the other, so it sees their operations in
// order.
func run(dirs, spec, routing, prio string, reps int, prof string, study *reuseStudy) (float64, error) {
	var insts []simcore.Instance
	for _, d := range strings.Split(dirs, ",") {
		ds, err := datasets.Read(d)
		if err != nil {
			return 0, err
		}
		insts = append(insts, ds.Instances...)
	}
	var sched simcore.Scheduler
	var err error
	switch {
	case routing != "":
		p, err := rule.ParseParams(routing, "all", false)
		if err != nil {
			return 0, err
		}
		t, err := expr.Ranking.Parse(prio)
		if err != nil {
			return 0, err
		}
		r, err := rule.New(p)
		if err != nil {
			return 0, err
		}
		if study != nil {
			r = rule.WithDecisionLog(r, study.log)
		}
		sched = simcore.NewListScheduler("learned", r, learn.NewFormulaRanking(t, false), simcore.BestFit{})
	case strings.HasPrefix(spec, "evo-"):
		ep := evo.DefaultParams()
		ep.Population, ep.Generations = 50, 50
		sched, err = policies.Parse(spec, simcore.Params{Sections: map[string]any{evo.SectionName: ep}})
	default:
		sched, err = policies.Parse(spec, simcore.Params{})
	}
	if err != nil {
		return 0, err
	}
	if prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return 0, err
		}
		defer pprof.StopCPUProfile()
	}
	ops := 0
	t0, c0 := time.Now(), cpu()
	var sum float64
	for range reps {
		for i := range insts {
			res, err := simcore.Simulate(context.Background(), &insts[i], sched, simcore.Options{OnOperation: func(int64, int, int) { ops++ }})
			if err != nil {
				return 0, err
			}
			sum += res.Metrics.Objective
		}
	}
	el, c := time.Since(t0), cpu()-c0
	name := spec
	if routing != "" {
		name = "learned"
	}
	fmt.Printf("%s ops=%d wall=%v cpu=%.3fs cpu-per-op=%.2fus objsum=%.9g\n", name, ops, el, c, c*1e6/float64(max(1, ops)), sum)
	return c * 1e6 / float64(max(1, ops)), nil
}

// cpu is the process's user + system CPU time in seconds.
func cpu() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

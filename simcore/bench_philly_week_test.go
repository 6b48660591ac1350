package simcore_test

import (
	"context"
	"os"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/simcore"
)

// BenchmarkPhillyWeek simulates the busiest week of the Philly trace
// (2017-10-22 to 10-29: 9,931 jobs, offered load 1.69) on one cluster of
// 60 nodes × 8 GPUs, under the single-cluster objective (Eq. 16, ω = 0.5),
// `user` allocation and best fit, for learned formulas with q — the
// paper's Eq. 17, d − q·q and q·q − d (hours, as learning uses them; the
// last also under MCT, the learner's default allocator) — and for
// tiresias's ranking (SRSF) on the same instance, the ratio's
// denominator. The dataset is
// named by $EVOGP_PHILLY_WEEK (skipped when unset), made by
//
//	evogp data import philly --in ../shared/traces/philly/philly.csv --out /tmp/philly-week \
//	    --single-cluster --nodes 60 --instance-span 168h --from 2017-10-22 --to 2017-10-29 --format csv
//
// and run as
//
//	EVOGP_PHILLY_WEEK=/tmp/philly-week go test ./simcore -run '^$' -bench PhillyWeek -benchtime 1x
func BenchmarkPhillyWeek(b *testing.B) {
	dir := os.Getenv("EVOGP_PHILLY_WEEK")
	if dir == "" {
		b.Skip("EVOGP_PHILLY_WEEK not set")
	}
	ds, err := datasets.Read(dir)
	if err != nil {
		b.Fatal(err)
	}
	inst := &ds.Instances[0]
	opts := simcore.Options{Objective: simcore.Objective{Kind: simcore.SingleCluster, Omega: 0.5}}
	formula := func(alloc, src string) simcore.Scheduler {
		t, err := expr.Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		s, err := simcore.ParseScheduler(alloc+"+formula+bestfit", map[string]simcore.Ranking{"formula": formula.NewRanking(t, false)})
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	tiresias, err := simcore.ParseScheduler("user+srsf+bestfit", nil) // tiresias's ranking; one cluster, so MCT = user
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		sched simcore.Scheduler
	}{
		{"tiresias", tiresias},
		{"eq17", formula("user", "((q + g) % q - u) * (d % (q + (d + g - u) % (q * q)))")},
		{"d-q*q", formula("user", "d - q*q")},
		{"q*q-d", formula("user", "q*q - d")},
		{"mct/q*q-d", formula("mct", "q*q - d")}, // the learner's default allocator
	} {
		b.Run(c.name, func(b *testing.B) {
			var obj float64
			benchCPU(b, func() {
				res, err := simcore.Simulate(context.Background(), inst, c.sched, opts)
				if err != nil {
					b.Fatal(err)
				}
				obj = opts.Objective.Value(res.Metrics)
			})
			b.ReportMetric(obj, "objective")
		})
	}
}

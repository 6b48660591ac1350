package experiment

import (
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// OpsRows converts one simulation's EVO operation log (simcore.Result.Ops,
// recorded with simcore.Options.RecordOps) to rows of ops.parquet,
// labelled with the scheduler's label, in operation order.
func OpsRows(r simcore.Result, scheduler string) []reports.OpsRow {
	rows := make([]reports.OpsRow, len(r.Ops))
	for i, o := range r.Ops {
		rows[i] = reports.OpsRow{
			Instance: r.Instance, Scheduler: scheduler, T: o.Time, JS: int64(o.Js),
			Generations: int64(o.Generations), Evaluations: int64(o.Evaluations),
			MCTFitness: o.MCTFitness, EVOFitness: o.EVOFitness, WallMS: o.WallMS,
		}
	}
	return rows
}

// allocation names the allocator of a policy's list scheduler as the
// registry knows it ("evo", "mct", …; "" for other schedulers) and a key
// of everything else it is made of: its ranking (for a formula, the
// formula and its time unit) and its placer, by their registry names
// (simcore.ListScheduler.Parts). Two policies with the same key differ only
// in their allocator.
func allocation(p Policy) (alloc, rest string) {
	ls, ok := p.sched.(*simcore.ListScheduler)
	if !ok || ls.Parts.Allocator == "" {
		return "", ""
	}
	rank := ls.Parts.Ranking
	if p.Source != "" {
		rank = "formula " + p.Source + " in " + p.TimeUnit
	}
	return ls.Parts.Allocator, rank + " | " + ls.Parts.Placer
}

// EVOPairs pairs every policy with the evo allocator with the first policy
// that is the same scheduler under MCT allocation (same ranking — the same
// formula for learned ones — and the same placer): evo-fifo with liquid,
// evo-srsf with tiresias, evo-lyra with lyra, evo+fifo+roundrobin with
// spark, evo-gp=RUN with gp=RUN. EVO policies without a counterpart are
// left out. These pairs are the bars of paper Fig. 11b.
func EVOPairs(ps []Policy) []reports.EVOPair {
	var out []reports.EVOPair
	for _, e := range ps {
		alloc, key := allocation(e)
		if alloc != "evo" {
			continue
		}
		for _, m := range ps {
			if a, k := allocation(m); a == "mct" && k == key {
				out = append(out, reports.EVOPair{EVO: e.Label, MCT: m.Label})
				break
			}
		}
	}
	return out
}

package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/evogp/evogp/hydra"
	"github.com/evogp/evogp/simcore"
)

// FloatClockRow is one instance's result under the float clock.
type FloatClockRow struct {
	Instance       string  `json:"instance"`
	Jobs           int     `json:"jobs"`
	AvgJCT         float64 `json:"avg_jct_s"`
	TotalTardiness float64 `json:"total_tardiness_s"`
	DeadlineMisses int     `json:"deadline_misses"`
}

// FloatClock simulates every instance with Hydra's float clock
// (hydra.FloatClockSJFFastest: scheduler sjf-fastest only, which
// reproduces the figures of Hydra's own simulator) and prints one row per
// instance — avg JCT, total tardiness (seconds) and deadline misses — as a
// table or, with o.JSON, JSON lines; nothing is printed on an error.
func FloatClock(ctx context.Context, o SimulateCommand, insts []simcore.Instance, w io.Writer) error {
	if s := o.Scheduler; s != "sjf-fastest" {
		return fmt.Errorf("--clock hydra-float: scheduler %q: only sjf-fastest has a float-clock model", s)
	}
	for _, f := range []string{"jobs-out", "ops-out", "summary-out", "backfill", "trigger"} {
		if o.Given != nil && o.Given(f) {
			return fmt.Errorf("--clock hydra-float: --%s does not apply (the float clock has its own operation rule and prints its metrics)", f)
		}
	}
	rows := make([]FloatClockRow, 0, len(insts))
	for i := range insts {
		inst := &insts[i]
		r, err := hydra.FloatClockSJFFastest(ctx, inst)
		if err != nil {
			return fmt.Errorf("instance %s: %w", inst.Name, err)
		}
		rows = append(rows, FloatClockRow{Instance: inst.Name, Jobs: len(inst.Jobs), AvgJCT: r.AvgJCT, TotalTardiness: r.TotalTardiness, DeadlineMisses: r.Misses})
	}
	if o.JSON {
		enc := json.NewEncoder(w)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	fmt.Fprintf(w, "scheduler: sjf-fastest (hydra-float clock)\n%20s %6s %14s %18s %8s\n", "instance", "jobs", "avg_jct s", "total_tardiness s", "misses")
	for _, r := range rows {
		fmt.Fprintf(w, "%20s %6d %14.4f %18.4f %8d\n", r.Instance, r.Jobs, r.AvgJCT, r.TotalTardiness, r.DeadlineMisses)
	}
	return nil
}

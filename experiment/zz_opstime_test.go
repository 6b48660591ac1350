package experiment

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/reports"
)

// Temporary measurement helper (not committed): EVOGP_OPS=ops.parquet
// prints EVO's mean wall time per operation; EVOGP_DS=dir EVOGP_SCHED=list
// times each scheduler's simulation per operation (arrival events).
func TestZZOpsTime(t *testing.T) {
	if p := os.Getenv("EVOGP_OPS"); p != "" {
		rows, err := reports.ReadOps(p)
		if err != nil {
			t.Fatal(err)
		}
		sum, n, js := map[string]float64{}, map[string]int{}, map[string]int64{}
		for _, r := range rows {
			sum[r.Scheduler] += r.WallMS
			n[r.Scheduler]++
			js[r.Scheduler] += r.JS
		}
		for k := range sum {
			fmt.Printf("OPS %s: %d ops, mean wall %.3f ms/op, mean |Js| %.1f\n", k, n[k], sum[k]/float64(n[k]), float64(js[k])/float64(n[k]))
		}
	}
	dir := os.Getenv("EVOGP_DS")
	if dir == "" {
		return
	}
	ds, err := datasets.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := DefaultPolicyBuilder(false).Policies(os.Getenv("EVOGP_SCHED"))
	if err != nil {
		t.Fatal(err)
	}
	opts, _ := DefaultSimSettings().Options()
	ops := 0
	for _, in := range ds.Instances {
		seen := map[int64]bool{}
		for _, j := range in.Jobs {
			seen[j.Arrival] = true
		}
		ops += len(seen)
	}
	for _, p := range ps {
		t0 := time.Now()
		res, err := SimulateAll(context.Background(), ds.Instances, p, opts, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(t0)
		var objs []string
		for _, r := range res {
			objs = append(objs, fmt.Sprintf("%.4g", r.Metrics.Objective))
		}
		fmt.Printf("SIM %s: %d ops, %.4f ms/op (whole simulation ÷ arrival events), objectives %s\n", p.Label, ops, float64(el.Microseconds())/1000/float64(ops), strings.Join(objs, " "))
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRuleDataset writes simcore/rule's hand case: two clusters of one
// node × 4 GPUs; job 0 (4 GPUs, 0–100 s, user 0), job 1 (4 GPUs, 50 s,
// user 0), job 2 (1 GPU, arrives at 10, 10 s, user 1).
func writeRuleDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clusters.csv", "instance,cluster,nodes,gpus_per_node\nhand,0,1,4\nhand,1,1,4\n")
	write("jobs.csv", "instance,job,arrival,cluster,duration,workers,gpus,priority\n"+
		"hand,0,0,0,100,1,4,1\nhand,1,0,0,50,1,4,1\nhand,2,10,1,10,1,1,1\n")
	return dir
}

func TestSimulateRuleBadInput(t *testing.T) {
	dir := writeRuleDataset(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--routing", "W + e"}, `unknown variable "e" in a routing tree: it is a ranking terminal`},
		{[]string{"--routing", "m", "--backfill", "strict"}, "uses m"},
		{[]string{"--routing", "m", "--backfill", "preemptive"}, "uses m"},
		{[]string{"--scope", "all", "--backfill", "strict"}, "scope all does not support backfill"},
		{[]string{"--scope", "sometimes"}, `unknown scope "sometimes"`},
		{[]string{"--routing", "m", "--scope", "all", "--backfill", "strict"}, "uses m"},
	} {
		var out, errOut bytes.Buffer
		args := append([]string{"evogp", "simulate", "--dataset", dir, "--scheduler", "rule+fifo+bestfit", "--quiet"}, c.args...)
		code := run(context.Background(), args, &out, &errOut)
		if code == 0 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut.String(), c.want)
		}
		if out.Len() != 0 {
			t.Errorf("%v: partial output %q", c.args, out.String())
		}
	}
}

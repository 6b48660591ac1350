package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deployBest is a hand-written two-tree best.json: R = h·(2 − g), f =
// g·d − q, scope all.
const deployBest = `{"tree": ["-", ["*", "g", "d"], "q"], "infix": "g * d - q", "terminals": ["d", "q", "u", "g"],
 "candidate": "rule+formula+bestfit", "time_unit": "hours", "learn": ["routing", "ranking"],
 "routing_tree": ["*", "h", ["-", 2, "g"]], "routing_infix": "h * (2 - g)", "routing_terminals": ["g", "h"], "scope": "all"}`

// TestDeploySlurmReplay runs `evogp deploy slurm --snapshot` on the saved
// queue of testdata/deploy-snapshot (now 05:00; partitions a: 2 nodes × 4
// GPUs, one running job; b: 1 node × 8 GPUs). By hand: job 104 (1 GPU,
// submitted to b) scores R = 1 on b and 0 on a, so it goes to a; 102 (2
// GPUs) ties at 0 and stays in a; 103 (4 GPUs) scores −2 in a and 0 in b.
// f = g·d − q in hours: 104: 1·1 − 1.25 = −0.25, 102: 2·2 − 2 = 2, 103:
// 8·0.5 − 1.5 = 2.5. The held job 105 is left alone.
func TestDeploySlurmReplay(t *testing.T) {
	dir := t.TempDir()
	best := filepath.Join(dir, "best.json")
	if err := os.WriteFile(best, []byte(deployBest), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := filepath.Abs(filepath.Join("testdata", "deploy-snapshot"))
	if err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "decisions.csv")
	stdout, stderr, err := runApp(t, "deploy", "slurm", best, "--snapshot", snap, "--decisions-out", csv, "--qos-priority", "high=3")
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout, stderr)
	}
	got, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	if want := "job,partition,rank\n104,a,1\n102,a,2\n103,a,3\n"; string(got) != want {
		t.Errorf("decisions:\n%s\nwant:\n%s", got, want)
	}
	for _, w := range []string{"replay of", "104  b -> a", "Slurm's own order [102 103]", "job 105 (b, pending): held"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	// --partitions other than the snapshot's, a missing RUN, --once with
	// --interval: one clear error each.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"deploy", "slurm", best, "--snapshot", snap, "--partitions", "a"}, "the snapshot"},
		{[]string{"deploy", "slurm", "--partitions", "a"}, "give one RUN"},
		{[]string{"deploy", "slurm", best, "--partitions", "a", "--once", "--interval", "1m"}, "choose one"},
		{[]string{"deploy", "slurm", best, "--partitions", "a", "--gpus-from", "tpus"}, "--gpus-from \"tpus\""},
		{[]string{"deploy", "slurm", best, "--partitions", "a", "--qos-priority", "high=0"}, "--qos-priority"},
	} {
		if _, _, err := runApp(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// TestDeploySlurmHelpDocumentsMappings: --help states every mapping.
func TestDeploySlurmHelpDocumentsMappings(t *testing.T) {
	stdout, _, err := runApp(t, "deploy", "slurm", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"cluster  each partition", "running  a running job", "pending  a pending job", "  d  ", "  g  ", "  r  ", "  u  ",
		"q, a", "--dry-run", "--restore", "--gpus-from", "--duration-from", "--qos-priority", "--workers-from", "terminal"} {
		if !strings.Contains(stdout, w) && !strings.Contains(strings.ReplaceAll(stdout, "        ", "  "), w) {
			t.Errorf("--help lacks %q", w)
		}
	}
}

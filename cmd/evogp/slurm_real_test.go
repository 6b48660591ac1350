package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealSlurm submits a small sweep to the Slurm cluster this machine
// reaches (SLURM_CONF), waits for it and compares the collected tables
// with the local launcher's. scripts/slurm-test.sh (make test-slurm)
// starts a single-node cluster and runs it; elsewhere it skips.
func TestRealSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("submits to Slurm")
	}
	for _, tool := range []string{"sbatch", "squeue", "sinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("Slurm cannot run here: %s is not installed (make test-slurm installs and starts a single-node Slurm)", tool)
		}
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "idle") && !strings.Contains(string(out), "mix") {
		t.Skipf("Slurm cannot run here: no idle node reachable (sinfo: %v %s); make test-slurm starts a single-node Slurm", err, strings.TrimSpace(string(out)))
	}
	bin := buildEvogp(t)
	work := t.TempDir()
	sweep := []string{"learn", "-m", "--config", "smoke", "gp.generations=2", "seed=1,2,3", "--quiet"}
	mustRunEnv(t, work, nil, bin, append(sweep, "--out", "local")...)
	sub := mustRunEnv(t, work, nil, bin, append(sweep, "--out", "slurm", "--launcher", "slurm", "--cpus-per-task", "1", "--throttle", "2")...)
	job := strings.Fields(strings.TrimPrefix(strings.SplitN(sub, "\n", 2)[0], "submitted job "))
	if !strings.HasPrefix(sub, "submitted job ") || len(job) == 0 {
		t.Fatalf("submission: %s", sub)
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		q, err := exec.Command("squeue", "-h", "-j", job[0], "-t", "pending,running,completing", "-o", "%i").CombinedOutput()
		if err == nil && strings.TrimSpace(string(q)) == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still queued after 5 minutes: %s %v", job[0], q, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	st := mustRunEnv(t, work, nil, bin, "status", "slurm")
	if !strings.Contains(st, "3 done, 0 running, 0 pending, 0 failed") {
		t.Fatalf("status:\n%s", st)
	}
	mustRunEnv(t, work, nil, bin, "collect", "slurm")
	sameFiles(t, filepath.Join(work, "local"), filepath.Join(work, "slurm"), "sweep.parquet", "baselines.parquet")
}

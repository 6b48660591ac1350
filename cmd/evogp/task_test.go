package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
)

// fakeSbatch is an sbatch that records its arguments and script and runs
// the array elements itself, one after the other, as Slurm would (with
// SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID and SLURM_CPUS_PER_TASK set);
// an index listed in $FAKE_CANCEL is not run but recorded as cancelled.
// Job ids count from 100. fakeSacct prints the recorded element states.
const fakeSbatch = `#!/bin/bash
st="$FAKE_SLURM_DIR"
n=$(cat "$st/next" 2>/dev/null || echo 100)
echo $((n+1)) > "$st/next"
printf '%s\n' "$*" >> "$st/sbatch.args"
script="${@: -1}"
cp "$script" "$st/script.$n"
array=""
for a in "$@"; do case "$a" in --array=*) array="${a#--array=}";; esac; done
[ -n "$array" ] || array=$(sed -n 's/^#SBATCH --array=//p' "$script")
body="${array%\%*}"
for part in ${body//,/ }; do
	lo=${part%-*}; hi=${part#*-}
	for ((i=lo; i<=hi; i++)); do
		if [[ ",$FAKE_CANCEL," == *",$i,"* ]]; then
			echo "${n}_$i|CANCELLED" >> "$st/sacct"
			continue
		fi
		if SLURM_ARRAY_JOB_ID=$n SLURM_ARRAY_TASK_ID=$i SLURM_CPUS_PER_TASK=1 bash "$script" >> "$st/run.log" 2>&1; then
			echo "${n}_$i|COMPLETED" >> "$st/sacct"
		else
			echo "${n}_$i|FAILED" >> "$st/sacct"
		fi
	done
done
echo "$n"
`

const fakeSacct = `#!/bin/bash
printf '%s\n' "$*" >> "$FAKE_SLURM_DIR/sacct.args"
cat "$FAKE_SLURM_DIR/sacct" 2>/dev/null
`

// fakeSlurm puts fake sbatch and sacct on a PATH of their own and returns
// the environment that uses them and their record directory.
func fakeSlurm(t *testing.T) (env []string, rec string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	rec = filepath.Join(t.TempDir(), "rec")
	for _, d := range []string{bin, rec} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"sbatch": fakeSbatch, "sacct": fakeSacct} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "FAKE_SLURM_DIR=" + rec}, rec
}

// runEnv runs the evogp binary with extra environment in dir and returns
// its combined output.
func runEnv(dir string, env []string, bin string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off"), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustRunEnv(t *testing.T, dir string, env []string, bin string, args ...string) string {
	t.Helper()
	out, err := runEnv(dir, env, bin, args...)
	if err != nil {
		t.Fatalf("evogp %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	for _, n := range names {
		x, err1 := os.ReadFile(filepath.Join(a, n))
		y, err2 := os.ReadFile(filepath.Join(b, n))
		if err1 != nil || err2 != nil || len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s (%v, %v)", n, a, b, err1, err2)
		}
	}
}

// The central property of SPEC §15: the same sweep through the local
// launcher and through Slurm (here a fake sbatch that runs the array
// elements itself) gives byte-identical merged results — also when a task
// was cancelled and only it was resubmitted.
func TestSlurmLauncherMatchesLocal(t *testing.T) {
	bin := buildEvogp(t)
	work := t.TempDir()
	env, rec := fakeSlurm(t)
	sweep := []string{"learn", "-m", "--config", "smoke", "gp.generations=1", "objective.kind=single", "objective.omega=0,1", "seed=1,2", "--quiet"}

	mustRunEnv(t, work, nil, bin, append(sweep, "--out", "local", "--jobs", "2")...)

	out := mustRunEnv(t, work, append(env, "FAKE_CANCEL=2"), bin, append(sweep, "--out", "slurm", "--launcher", "slurm",
		"--throttle", "2", "--cpus-per-task", "1", "--partition", "short", "--mem", "1G", "--account", "lab", "--time", "10:00",
		"--sbatch-arg=--qos=test")...)
	dir := filepath.Join(work, "slurm")
	for _, want := range []string{"submitted job 100 (array 0-3%2)", "evogp status " + "slurm", "evogp collect slurm"} {
		if !strings.Contains(out, want) {
			t.Errorf("submit output lacks %q:\n%s", want, out)
		}
	}
	script := filepath.Join(dir, "slurm", "array.sbatch")
	args, _ := os.ReadFile(filepath.Join(rec, "sbatch.args"))
	if got, want := string(args), "--parsable --qos=test "+script+"\n"; got != want {
		t.Errorf("sbatch arguments %q, want %q", got, want)
	}
	sc, _ := os.ReadFile(filepath.Join(rec, "script.100"))
	for _, line := range []string{"#SBATCH --array=0-3%2", "#SBATCH --cpus-per-task=1", "#SBATCH --partition=short", "#SBATCH --mem=1G",
		"#SBATCH --account=lab", "#SBATCH --time=10:00", "#SBATCH --output=" + filepath.Join(dir, "logs", "task-%a.log"), "' task run '" + dir + "'"} {
		if !strings.Contains(string(sc), line) {
			t.Errorf("script lacks %q:\n%s", line, sc)
		}
	}

	// Task 2 was cancelled: status says so (from sacct), collect refuses.
	st := mustRunEnv(t, work, env, bin, "status", "slurm")
	if !strings.Contains(st, "3 done, 0 running, 0 pending, 1 failed (from the directory and sacct)") || !strings.Contains(st, "slurm: CANCELLED") {
		t.Errorf("status:\n%s", st)
	}
	if out, err := runEnv(work, env, bin, "collect", "slurm"); err == nil || !strings.Contains(out, "1 of 4 tasks are not done (failed: 2)") {
		t.Errorf("collect with a failed task: %v\n%s", err, out)
	}
	assertAbsent(t, filepath.Join(dir, "sweep.parquet"))

	// Only the failed task is resubmitted, with the same options.
	out = mustRunEnv(t, work, env, bin, "collect", "slurm", "--resubmit-failed")
	if !strings.Contains(out, "resubmitted tasks 2 as job 101 (array 2%2)") {
		t.Errorf("resubmit output:\n%s", out)
	}
	args, _ = os.ReadFile(filepath.Join(rec, "sbatch.args"))
	lines := strings.Split(strings.TrimSpace(string(args)), "\n")
	if len(lines) != 2 || lines[1] != "--parsable --qos=test --array=2%2 "+script {
		t.Errorf("sbatch calls %q", lines)
	}
	if out := mustRunEnv(t, work, env, bin, "collect", "slurm", "--resubmit-failed"); !strings.Contains(out, "no failed tasks") {
		t.Errorf("nothing to resubmit: %s", out)
	}
	mustRunEnv(t, work, env, bin, "collect", "slurm")
	sameFiles(t, filepath.Join(work, "local"), dir, "sweep.parquet", "baselines.parquet",
		"points/objective.omega-0_seed-2/best.json", "points/objective.omega-1_seed-1/test.parquet")
	mustRunEnv(t, work, env, bin, "report", "slurm", "--format", "svg")
	if _, err := os.Stat(filepath.Join(dir, "tradeoff.svg")); err != nil {
		t.Errorf("report on the collected sweep: %v", err)
	}
	// export SWEEP_DIR prints every point's formula under its name, each
	// the same as exporting that point's best.json alone.
	exp := mustRunEnv(t, work, nil, bin, "export", "local")
	for _, pt := range []string{"objective.omega-0_seed-1", "objective.omega-0_seed-2", "objective.omega-1_seed-1", "objective.omega-1_seed-2"} {
		one := mustRunEnv(t, work, nil, bin, "export", filepath.Join("local", "points", pt, "best.json"))
		if !strings.Contains(exp, one) {
			t.Errorf("export of the sweep lacks point %s's formula %q:\n%s", pt, one, exp)
		}
	}
	if n := strings.Count(exp, "# "); n != 4 {
		t.Errorf("export of the sweep names %d points, want 4:\n%s", n, exp)
	}
	// Each task ran with $SLURM_CPUS_PER_TASK = 1 cores (this machine may have more).
	if b, _ := os.ReadFile(filepath.Join(dir, "tasks", "0000.state")); !strings.Contains(string(b), `"cpus": 1,`) || !strings.Contains(string(b), `"job": "slurm:100_0"`) {
		t.Errorf("task 0 state: %s", b)
	}
	// A task run again by hand is a no-op.
	if out := mustRunEnv(t, work, nil, bin, "task", "run", "slurm", "--index", "3"); !strings.Contains(out, "task 3 of slurm: already done") {
		t.Errorf("task run again: %s", out)
	}
}

// An eval through Slurm (one task per instance, every scheduler) collects
// to the files the local eval writes, and evogp report redraws them.
func TestSlurmEvalMatchesLocal(t *testing.T) {
	bin := buildEvogp(t)
	work := t.TempDir()
	data := smokeDataset(t)
	env, _ := fakeSlurm(t)
	eval := []string{"eval", "--dataset", data, "--schedulers", "spark,tiresias,f=g*d+q", "--format", "svg", "--quiet"}
	mustRunEnv(t, work, nil, bin, append(eval, "--out", "local")...)
	out := mustRunEnv(t, work, env, bin, append(eval, "--out", "slurm", "--launcher", "slurm")...)
	if !strings.Contains(out, "submitted job 100 (array 0-1%32)") {
		t.Errorf("submit output:\n%s", out)
	}
	mustRunEnv(t, work, env, bin, "collect", "slurm")
	sameFiles(t, filepath.Join(work, "local"), filepath.Join(work, "slurm"), "results.parquet", "jobs.parquet", "summary.md", "summary.csv", experiment.MarkerFile, "ranking.svg")
	mustRunEnv(t, work, env, bin, "report", "slurm", "--format", "svg")
}

func TestLauncherBadInput(t *testing.T) {
	bin := buildEvogp(t)
	work := t.TempDir()
	sweep := []string{"learn", "-m", "--config", "smoke", "gp.generations=1", "seed=1,2", "--quiet"}
	empty := t.TempDir()
	for _, c := range []struct {
		env  []string
		args []string
		want string
	}{
		{[]string{"PATH=" + empty}, append(sweep, "--out", "a", "--launcher", "slurm"), "sbatch not found on PATH"},
		{nil, append(sweep, "--out", "b", "--launcher", "pbs"), `--launcher "pbs": want local, slurm or k8s`},
		{nil, append(sweep, "--out", "c", "--partition", "x"), "--partition applies to --launcher slurm or k8s"},
		{nil, []string{"learn", "--config", "smoke", "--launcher", "slurm"}, "needs -m"},
		{nil, append(sweep, "--out", "d", "--launcher", "k8s"), "--k8s-image is required"},
		{nil, append(sweep, "--out", "g", "--launcher", "slurm", "--jobs", "2", "--dry-run"), "--jobs applies to --launcher local"},
		{nil, []string{"task", "run", "nowhere", "--index", "0"}, "not a task directory"},
		{nil, []string{"task", "run", "e"}, "no task index"},
		{[]string{"SLURM_ARRAY_TASK_ID=x"}, []string{"task", "run", "e"}, `$SLURM_ARRAY_TASK_ID = "x"`},
		{nil, []string{"status", "nowhere"}, "not a task directory"},
	} {
		out, err := runEnv(work, c.env, bin, c.args...)
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("evogp %s: %v, want an error with %q:\n%s", strings.Join(c.args, " "), err, c.want, out)
		}
	}
	if o, _ := runEnv(work, []string{"PATH=" + empty}, bin, append(sweep, "--out", "f", "--launcher", "slurm")...); !strings.Contains(o, "--launcher local") {
		t.Error("the sbatch error does not name --launcher local")
	}

	// --dry-run writes the directory and script, submits nothing; the
	// tasks then run by index; a wrong index is refused; k8s emits the Job.
	out := mustRunEnv(t, work, []string{"PATH=" + empty}, bin, append(sweep, "--out", "dry", "--launcher", "slurm", "--dry-run")...)
	if !strings.Contains(out, "not submitted (--dry-run)") {
		t.Errorf("dry run: %s", out)
	}
	if _, err := os.Stat(filepath.Join(work, "dry", "slurm", "array.sbatch")); err != nil {
		t.Error(err)
	}
	if out, err := runEnv(work, nil, bin, "task", "run", "dry", "--index", "2"); err == nil || !strings.Contains(out, "task index 2 out of range: dry has 2 tasks (0..1)") {
		t.Errorf("index out of range: %v %s", err, out)
	}
	mustRunEnv(t, work, []string{"JOB_COMPLETION_INDEX=1"}, bin, "task", "run", "dry", "--quiet")
	st := mustRunEnv(t, work, nil, bin, "status", "dry")
	if !strings.Contains(st, "1 done, 0 running, 1 pending, 0 failed") {
		t.Errorf("status after one task:\n%s", st)
	}
	out = mustRunEnv(t, work, nil, bin, append(sweep, "--out", "kube", "--launcher", "k8s", "--dry-run", "--k8s-image", "evogp:dev", "--k8s-volume-claim", "runs")...)
	if !strings.Contains(out, "kubectl apply -f") {
		t.Errorf("k8s output: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(work, "kube", "k8s", "job.yaml")); err != nil || !strings.Contains(string(b), "completionMode: Indexed") {
		t.Errorf("k8s manifest: %v\n%s", err, b)
	}
}

package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/launch"
)

// smokeSweep prepares a 2-point sweep of one-generation smoke runs.
func smokeSweep(t *testing.T) (string, SweepSpec) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sweep")
	spec := SweepSpec{Config: "smoke", Fixed: []string{"gp.generations=1"}, Axes: []SweepAxis{{Key: "seed", Values: []string{"1", "2"}}}}
	n, err := PrepareSweep(dir, spec, Provenance{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("%d tasks, want 2", n)
	}
	return dir, spec
}

var quietTask = TaskRunOptions{Workers: 1, Progress: progress.Options{Quiet: true}}

// A task runs once: the second run is skipped and changes nothing; every
// task done, collect gives what the local launcher gives.
func TestTaskRunIdempotentAndCollectMatchesSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two small learning runs")
	}
	dir, spec := smokeSweep(t)
	ctx := context.Background()
	for i := range 2 {
		if skipped, err := RunTask(ctx, dir, i, quietTask); err != nil || skipped {
			t.Fatalf("task %d: skipped %v, %v", i, skipped, err)
		}
	}
	best := filepath.Join(dir, "points", "seed-1", "best.json")
	before, _ := os.ReadFile(best)
	st, _ := os.Stat(best)
	if skipped, err := RunTask(ctx, dir, 0, quietTask); err != nil || !skipped {
		t.Fatalf("second run: skipped %v, %v", skipped, err)
	}
	if st2, _ := os.Stat(best); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("a finished task ran again")
	}
	if _, err := Collect(ctx, dir, Provenance{}); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "local")
	if _, err := Sweep(ctx, SweepSettings{Spec: spec, Dir: local, Jobs: 2, Progress: progress.Options{Quiet: true}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sweep.parquet", "baselines.parquet", "points/seed-1/best.json", "points/seed-2/test.parquet"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(local, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between tasks run one by one and the local launcher", f)
		}
	}
	if len(before) == 0 {
		t.Error("no best.json")
	}
}

// Collect refuses a directory whose tasks are not all done, naming them.
func TestCollectNeedsAllTasksDone(t *testing.T) {
	dir, _ := smokeSweep(t)
	_, err := Collect(context.Background(), dir, Provenance{})
	if err == nil || !strings.Contains(err.Error(), "2 of 2 tasks are not done (pending: 0-1)") {
		t.Errorf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sweep.parquet")); err == nil {
		t.Error("sweep.parquet written from unfinished tasks")
	}
}

func TestTaskRunRefusals(t *testing.T) {
	dir, _ := smokeSweep(t)
	ctx := context.Background()
	for _, i := range []int{-1, 2, 99} {
		if _, err := RunTask(ctx, dir, i, quietTask); err == nil || !strings.Contains(err.Error(), "out of range") || !strings.Contains(err.Error(), "has 2 tasks") {
			t.Errorf("index %d: got %v", i, err)
		}
	}
	edit := func(i int, f func(*launch.TaskSpec)) {
		t.Helper()
		s, err := launch.ReadTaskSpec(dir, i)
		if err != nil {
			t.Fatal(err)
		}
		f(&s)
		b, _ := json.Marshal(s)
		if err := os.WriteFile(launch.TaskSpecPath(dir, i), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(0, func(s *launch.TaskSpec) { s.Version = "v0.0.1 go1.20" })
	if _, err := RunTask(ctx, dir, 0, quietTask); err == nil || !strings.Contains(err.Error(), "made by evogp v0.0.1") {
		t.Errorf("other version: got %v", err)
	}
	// The config the task reads now is not the one it was made with.
	edit(1, func(s *launch.TaskSpec) { s.Inputs.Fixed = []string{"gp.generations=2"} })
	if _, err := RunTask(ctx, dir, 1, quietTask); err == nil || !strings.Contains(err.Error(), "configuration of task 1 has changed") {
		t.Errorf("other config: got %v", err)
	}
	for i := range 2 {
		if st, _ := launch.ReadTaskState(dir, i); st.State != launch.TaskPending {
			t.Errorf("refused task %d has state %q", i, st.State)
		}
	}
	if _, err := RunTask(ctx, filepath.Join(dir, "nothing"), 0, quietTask); err == nil || !strings.Contains(err.Error(), "not a task directory") {
		t.Errorf("no task directory: got %v", err)
	}
}

func TestTaskRunRefusesReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: file permissions do not stop root, so a read-only directory cannot be made here")
	}
	dir, _ := smokeSweep(t)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if _, err := RunTask(context.Background(), dir, 0, quietTask); err == nil || !strings.Contains(err.Error(), "is not writable") {
		t.Errorf("got %v", err)
	}
}

// CheckWritable's error for a path under a regular file (which no user,
// root included, can create directories in).
func TestCheckWritableNotADirectory(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, []byte("x"), 0o644)
	if err := launch.CheckWritable(filepath.Join(f, "dir")); err == nil || !strings.Contains(err.Error(), "is not writable") {
		t.Errorf("got %v", err)
	}
}

// The Indexed Job: its structure read back from the YAML.
func TestK8sManifestStructure(t *testing.T) {
	dir, _ := smokeSweep(t)
	if _, err := launch.WriteK8sJob(dir, launch.K8sOptions{}); err == nil || !strings.Contains(err.Error(), "--k8s-image") {
		t.Errorf("no image: got %v", err)
	}
	path, err := launch.WriteK8sJob(dir, launch.K8sOptions{Image: "ghcr.io/x/evogp:1", VolumeClaim: "shared", Parallelism: 5, CPU: "2", Mem: "4Gi"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Parallelism    int    `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					RestartPolicy string `yaml:"restartPolicy"`
					Containers    []struct {
						Image   string   `yaml:"image"`
						Command []string `yaml:"command"`
						Env     []struct {
							Name      string `yaml:"name"`
							ValueFrom struct {
								FieldRef struct {
									FieldPath string `yaml:"fieldPath"`
								} `yaml:"fieldRef"`
							} `yaml:"valueFrom"`
						} `yaml:"env"`
						VolumeMounts []struct {
							Name      string `yaml:"name"`
							MountPath string `yaml:"mountPath"`
						} `yaml:"volumeMounts"`
						Resources struct {
							Limits map[string]string `yaml:"limits"`
						} `yaml:"resources"`
					} `yaml:"containers"`
					Volumes []struct {
						Name string `yaml:"name"`
						PVC  struct {
							ClaimName string `yaml:"claimName"`
						} `yaml:"persistentVolumeClaim"`
					} `yaml:"volumes"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(false)
	if err := dec.Decode(&job); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || s.CompletionMode != "Indexed" || s.Completions != 2 || s.Parallelism != 2 {
		t.Errorf("job header: %+v %+v", job, s)
	}
	if job.Metadata.Name != "evogp-sweep" {
		t.Errorf("name %q", job.Metadata.Name)
	}
	ps := s.Template.Spec
	if ps.RestartPolicy != "Never" || len(ps.Containers) != 1 || len(ps.Volumes) != 1 {
		t.Fatalf("pod spec: %+v", ps)
	}
	c := ps.Containers[0]
	if !reflect.DeepEqual(c.Command, []string{"evogp", "task", "run", abs, "--index", "$(JOB_COMPLETION_INDEX)"}) {
		t.Errorf("command %q", c.Command)
	}
	if len(c.Env) != 1 || c.Env[0].Name != "JOB_COMPLETION_INDEX" || c.Env[0].ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("env %+v", c.Env)
	}
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].Name != ps.Volumes[0].Name || c.VolumeMounts[0].MountPath != abs || ps.Volumes[0].PVC.ClaimName != "shared" {
		t.Errorf("shared volume: %+v %+v", c.VolumeMounts, ps.Volumes)
	}
	if c.Resources.Limits["cpu"] != "2" || c.Resources.Limits["memory"] != "4Gi" || c.Image != "ghcr.io/x/evogp:1" {
		t.Errorf("container %+v", c)
	}
}

// An eval run as tasks (one instance × every scheduler each) and collected
// writes byte for byte what the local eval writes.
func TestEvalTasksMatchLocalEval(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates a small dataset twice")
	}
	base := t.TempDir()
	data := filepath.Join(base, "data")
	smoke, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	insts, err := datasets.Generate(genSettings(smoke), 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := datasets.Write(data, &datasets.Dataset{Instances: insts}, ""); err != nil {
		t.Fatal(err)
	}
	pols, err := ParsePolicies("spark,tiresias,mine=g*d+q", false, false)
	if err != nil {
		t.Fatal(err)
	}
	s := EvalSettings{Dataset: data, Policies: pols, Sim: DefaultSimSettings(), TimeUnit: "hours",
		Figures: FigureOptions{Formats: []string{"svg"}, Reference: "spark"}, Progress: progress.Options{Quiet: true}}
	ctx := context.Background()
	local := filepath.Join(base, "local")
	s.Out = local
	if _, err := Eval(ctx, s); err != nil {
		t.Fatal(err)
	}
	s.Out = filepath.Join(base, "tasks")
	n, err := PrepareEval(s)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(insts) {
		t.Fatalf("%d tasks for %d instances", n, len(insts))
	}
	for i := n - 1; i >= 0; i-- { // any order
		if _, err := RunTask(ctx, s.Out, i, quietTask); err != nil {
			t.Fatal(err)
		}
	}
	if kind, err := Collect(ctx, s.Out, Provenance{}); err != nil || kind != launch.TaskEvalInstance {
		t.Fatalf("collect: %s, %v", kind, err)
	}
	files, _ := os.ReadDir(local)
	compared := 0
	for _, f := range files {
		if f.Name() == ProvenanceFile {
			continue
		}
		if f.Name() == "report.html" { // it quotes the provenance, which differs; both must have one
			if _, err := os.Stat(filepath.Join(s.Out, f.Name())); err != nil {
				t.Errorf("collected tasks: no report.html: %v", err)
			}
			continue
		}
		a, _ := os.ReadFile(filepath.Join(local, f.Name()))
		b, err := os.ReadFile(filepath.Join(s.Out, f.Name()))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the local eval and the collected tasks (%v)", f.Name(), err)
		}
		compared++
	}
	if compared < 5 {
		t.Errorf("compared only %d files", compared)
	}
	// The same command again keeps the directory; another is refused.
	if _, err := PrepareEval(s); err != nil {
		t.Errorf("same eval again: %v", err)
	}
	s.Policies = pols[:1]
	if _, err := PrepareEval(s); err == nil || !strings.Contains(err.Error(), "different eval command") {
		t.Errorf("other eval: got %v", err)
	}
}

// A task left "running" by a process of this host that no longer exists
// (killed without a chance to record it) is reported failed.
func TestStatusStaleRunningIsFailed(t *testing.T) {
	dir, _ := smokeSweep(t)
	host, _ := os.Hostname()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	b, _ := json.Marshal(launch.TaskState{State: launch.TaskRunning, Host: host, PID: cmd.Process.Pid})
	os.WriteFile(launch.TaskStatePath(dir, 0), b, 0o644)
	b, _ = json.Marshal(launch.TaskState{State: launch.TaskRunning, Host: host, PID: os.Getpid()})
	os.WriteFile(launch.TaskStatePath(dir, 1), b, 0o644)
	_, st, _, err := launch.Status(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if st[0].State != launch.TaskFailed || !strings.Contains(st[0].Detail, "is gone") || st[1].State != launch.TaskRunning {
		t.Errorf("states %+v", st)
	}
}

// Sweeping ω under Eq. 5 is refused (every point would be identical); under
// Eq. 16 it is accepted.
func TestSweepRefusesOmegaUnderMulti(t *testing.T) {
	axes := []SweepAxis{{Key: "objective.omega", Values: []string{"0", "1"}}}
	_, err := PrepareSweep(filepath.Join(t.TempDir(), "s"), SweepSpec{Config: "smoke", Axes: axes}, Provenance{})
	if err == nil || !strings.Contains(err.Error(), "objective.omega does nothing under objective.kind multi") {
		t.Fatalf("got %v", err)
	}
	if _, err := PrepareSweep(filepath.Join(t.TempDir(), "s"), SweepSpec{Config: "smoke", Fixed: []string{"objective.kind=single"}, Axes: axes}, Provenance{}); err != nil {
		t.Fatal(err)
	}
}

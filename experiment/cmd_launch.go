package experiment

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evogp/evogp/launch"
)

// Launchers of sweeps and evals (SPEC §15).
const (
	LauncherLocal = "local" // here, on a worker pool
	LauncherSlurm = "slurm" // one job array, submitted with sbatch
	LauncherK8s   = "k8s"   // an Indexed Job manifest, written only
)

// LaunchOptions are the command-line choices of where and how the tasks of
// a sweep or eval directory run: the launcher and, for slurm or k8s, the
// batch system's settings (see SlurmOptions and K8sOptions).
type LaunchOptions struct {
	Launcher       string   // LauncherLocal, LauncherSlurm or LauncherK8s
	DryRun         bool     // slurm: write the directory and script, do not submit
	Partition      string   // slurm
	Time           string   // slurm: time limit per task
	CPUsPerTask    int      // slurm: cores per task; k8s: the pod's CPU (0 = none)
	Mem            string   // slurm: memory per task; k8s: the pod's memory
	Account        string   // slurm
	Throttle       int      // slurm: tasks running at once; k8s: parallelism
	SbatchArgs     []string // slurm: further sbatch arguments
	K8sImage       string   // k8s: container image holding evogp
	K8sVolumeClaim string   // k8s: PersistentVolumeClaim holding the task directory
	K8sNamespace   string   // k8s: namespace of the Job
	// Given names the options above that the user gave, as their flags
	// (without dashes, in declaration order): the local launcher takes none.
	Given []string
}

// CheckLauncher validates the launcher of the command named command and
// refuses, with the local launcher, any batch-system option the user gave.
func CheckLauncher(command string, o LaunchOptions) error {
	switch o.Launcher {
	case LauncherLocal:
		if len(o.Given) > 0 {
			return fmt.Errorf("%s: --%s applies to --launcher slurm or k8s, not local", command, o.Given[0])
		}
	case LauncherSlurm, LauncherK8s:
	default:
		return fmt.Errorf("%s: --launcher %q: want local, slurm or k8s", command, o.Launcher)
	}
	return nil
}

// Launch hands the prepared task directory dir to the Slurm or k8s
// launcher of o and writes to w what it did and what to do next.
func Launch(ctx context.Context, dir string, o LaunchOptions, w io.Writer) error {
	if o.Launcher == LauncherK8s {
		path, err := launch.WriteK8sJob(dir, launch.K8sOptions{Image: o.K8sImage, VolumeClaim: o.K8sVolumeClaim,
			Namespace: o.K8sNamespace, Parallelism: o.Throttle, CPU: cpuQuantity(o.CPUsPerTask), Mem: o.Mem})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s (an Indexed Job; not applied)\n", path)
		fmt.Fprintf(w, "submit:  kubectl apply -f %s\nwatch:   evogp status %s\ncollect: evogp collect %s\n", path, dir, dir)
		return nil
	}
	sub, err := launch.SubmitSlurm(ctx, dir, nil, launch.SlurmOptions{
		Partition: o.Partition, Time: o.Time, CPUsPerTask: o.CPUsPerTask, Mem: o.Mem,
		Account: o.Account, Throttle: o.Throttle, Extra: o.SbatchArgs, DryRun: o.DryRun})
	if err != nil {
		return err
	}
	if o.DryRun {
		fmt.Fprintf(w, "wrote %s/%s (array %s); not submitted (--dry-run)\nsubmit:  %s\n", dir, launch.SlurmScriptFile, sub.Array, strings.Join(sub.Command, " "))
	} else {
		fmt.Fprintf(w, "submitted job %s (array %s)\nwatch:   squeue -j %s; evogp status %s\n", sub.JobID, sub.Array, sub.JobID, dir)
	}
	fmt.Fprintf(w, "collect: evogp collect %s   (failed tasks: evogp collect %s --resubmit-failed)\n", dir, dir)
	return nil
}

// cpuQuantity is a pod's CPU request for n cores; "" (none) for n ≤ 0.
func cpuQuantity(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

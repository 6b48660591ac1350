package launch

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/internal/atomicio"
)

// The Kubernetes launcher emits an Indexed Job (completionMode: Indexed):
// the pod of completion index i runs `evogp task run DIR --index i`, with
// the index taken from the pod's JOB_COMPLETION_INDEX, and DIR on a
// shared volume mounted at the same path in every pod. The manifest is
// written, not applied: `kubectl apply -f DIR/k8s/job.yaml` submits it.
// What the tasks read outside DIR — an eval's dataset, a sweep's config
// file — must be at the same paths in the pods (on the shared volume too).

// K8sJobFile is the manifest inside a task directory.
const K8sJobFile = "k8s/job.yaml"

// K8sOptions describe the Indexed Job.
type K8sOptions struct {
	Image       string // container image holding evogp (required)
	Binary      string // evogp inside the image; "" = "evogp"
	VolumeClaim string // PersistentVolumeClaim holding the task directory (required)
	Namespace   string
	Parallelism int    // pods at once; 0 = DefaultThrottle
	CPU         string // CPU request and limit per pod (e.g. "2"); "" = none
	Mem         string // memory request and limit per pod (e.g. "4Gi"); "" = none
}

// k8sName is a DNS-1123 label made of s.
func k8sName(s string) string {
	s = strings.ToLower(s)
	s = regexp.MustCompile(`[^a-z0-9-]+`).ReplaceAllString(s, "-")
	s = strings.Trim(s, "-")
	if len(s) > 50 {
		s = strings.Trim(s[:50], "-")
	}
	if s == "" {
		s = "tasks"
	}
	return "evogp-" + s
}

// K8sManifest is the Indexed Job of the task directory dir (absolute)
// with n tasks.
func K8sManifest(dir string, n int, o K8sOptions) (map[string]any, error) {
	if o.Image == "" {
		return nil, fmt.Errorf("k8s: --k8s-image is required (an image holding evogp)")
	}
	if o.VolumeClaim == "" {
		return nil, fmt.Errorf("k8s: --k8s-volume-claim is required (the PersistentVolumeClaim holding %s)", dir)
	}
	bin := o.Binary
	if bin == "" {
		bin = "evogp"
	}
	par := o.Parallelism
	if par <= 0 {
		par = DefaultThrottle
	}
	par = min(par, n)
	container := map[string]any{
		"name":    "task",
		"image":   o.Image,
		"command": []any{bin, "task", "run", dir, "--index", "$(JOB_COMPLETION_INDEX)"},
		"env": []any{map[string]any{
			"name": "JOB_COMPLETION_INDEX",
			"valueFrom": map[string]any{"fieldRef": map[string]any{
				"fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"}},
		}},
		"volumeMounts": []any{map[string]any{"name": "shared", "mountPath": dir}},
	}
	res := map[string]any{}
	if o.CPU != "" {
		res["cpu"] = o.CPU
	}
	if o.Mem != "" {
		res["memory"] = o.Mem
	}
	if len(res) > 0 {
		container["resources"] = map[string]any{"requests": res, "limits": res}
	}
	meta := map[string]any{"name": k8sName(filepath.Base(dir)), "labels": map[string]any{"app.kubernetes.io/name": "evogp"}}
	if o.Namespace != "" {
		meta["namespace"] = o.Namespace
	}
	return map[string]any{
		"apiVersion": "batch/v1",
		"kind":       "Job",
		"metadata":   meta,
		"spec": map[string]any{
			"completionMode": "Indexed",
			"completions":    n,
			"parallelism":    par,
			"backoffLimit":   3 * n,
			"template": map[string]any{
				"spec": map[string]any{
					"restartPolicy": "Never",
					"containers":    []any{container},
					"volumes": []any{map[string]any{
						"name":                  "shared",
						"persistentVolumeClaim": map[string]any{"claimName": o.VolumeClaim},
					}},
				},
			},
		},
	}, nil
}

// WriteK8sJob writes dir's Indexed Job manifest (K8sJobFile) and returns
// its path.
func WriteK8sJob(dir string, o K8sOptions) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	set, err := ReadTaskSet(abs)
	if err != nil {
		return "", err
	}
	m, err := K8sManifest(abs, set.Count, o)
	if err != nil {
		return "", err
	}
	b, err := yaml.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("k8s: %w", err)
	}
	path := filepath.Join(abs, K8sJobFile)
	if err := MkdirFor(path); err != nil {
		return "", err
	}
	return path, atomicio.WriteBytes(path, b)
}

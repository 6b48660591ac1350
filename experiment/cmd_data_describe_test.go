package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RunDataDescribeCommand (evogp data describe) warns on stderr when the baselines differ by less than
// 1 % (no job ever waits), and not when the queue order matters.
func TestDataDescribeWarnsOnFlatBaselines(t *testing.T) {
	for _, c := range []struct {
		name, clusters, jobs string
		warn                 bool
	}{
		{"idle", "instance,cluster,nodes,gpus_per_node\na,0,1,8\n",
			"instance,job,arrival,cluster,duration,workers,gpus,priority\na,1,0,0,100,1,1,1\na,2,50,0,30,1,1,1\na,3,400,0,10,1,1,1\n", true},
		{"busy", "instance,cluster,nodes,gpus_per_node\na,0,1,1\n",
			"instance,job,arrival,cluster,duration,workers,gpus,priority\na,1,0,0,1000,1,1,1\na,2,1,0,10,1,1,1\na,3,2,0,10,1,1,1\na,4,3,0,500,1,1,1\na,5,4,0,5,1,1,1\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := t.TempDir()
			os.WriteFile(filepath.Join(d, "clusters.csv"), []byte(c.clusters), 0o644)
			os.WriteFile(filepath.Join(d, "jobs.csv"), []byte(c.jobs), 0o644)
			var stdout, stderr strings.Builder
			if err := RunDataDescribeCommand(context.Background(), DataDescribeCommand{Args: []string{d}, Types: 3}, &stdout, &stderr); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stdout.String(), "total") {
				t.Errorf("no table:\n%s", stdout.String())
			}
			if got := strings.Contains(stderr.String(), "warning: the baselines differ by less than 1 %"); got != c.warn {
				t.Errorf("warning %v, want %v; stderr:\n%s", got, c.warn, stderr.String())
			}
		})
	}
}

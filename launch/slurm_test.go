package launch

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestIndexListAndBack(t *testing.T) {
	for _, c := range []struct {
		idx  []int
		want string
	}{
		{[]int{0}, "0"},
		{[]int{0, 1, 2, 3, 4, 5}, "0-5"},
		{[]int{0, 1, 2, 5, 7, 8}, "0-2,5,7-8"},
		{[]int{3, 9}, "3,9"},
	} {
		if got := IndexList(c.idx); got != c.want {
			t.Errorf("IndexList(%v) = %q, want %q", c.idx, got, c.want)
		}
		if back := parseIndexList(c.want, 10); !reflect.DeepEqual(back, c.idx) {
			t.Errorf("parseIndexList(%q) = %v, want %v", c.want, back, c.idx)
		}
	}
	if got := arraySpec([]int{1, 4}, 2); got != "1,4%2" {
		t.Errorf("arraySpec = %q", got)
	}
}

// sacct and squeue lines of array elements: single elements and pending
// ranges; a later submission's state wins over an earlier one's.
func TestParseSlurmStates(t *testing.T) {
	out := strings.Join([]string{
		"100_0|COMPLETED",
		"100_1|CANCELLED by 0",
		"100_[2-4%2]|PENDING",
		"100_5|RUNNING",
		"101_1|PENDING",
		"999_3|FAILED", // not a job of this directory
		"100.batch|COMPLETED",
		"",
	}, "\n")
	got := parseSlurmStates(out+"100_[5-999999999999]|PENDING\n100_6|RUNNING\n", map[string]int{"100": 0, "101": 1}, 6)
	want := map[int]string{0: "COMPLETED", 1: "PENDING", 2: "PENDING", 3: "PENDING", 4: "PENDING", 5: "PENDING"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("states = %v, want %v", got, want)
	}
}

// IndexList and parseIndexList are inverse on sorted, distinct indices.
func TestIndexListRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var set []int
		p := rng.Float64()
		for i := range 200 {
			if rng.Float64() < p {
				set = append(set, i)
			}
		}
		if len(set) == 0 {
			continue
		}
		s := IndexList(set)
		if back := parseIndexList(s, 200); !reflect.DeepEqual(back, set) {
			t.Fatalf("%v → %q → %v", set, s, back)
		}
	}
}

// Whatever sacct or squeue print, the states are of tasks 0..n−1.
func FuzzParseSlurmStates(f *testing.F) {
	f.Add("100_0|COMPLETED\n100_[1-3%2]|PENDING\n", 4)
	f.Add("100_[0-99999999999]|PENDING", 3)
	f.Add("100_[-5-2,x,3-1]|RUNNING", 5)
	f.Fuzz(func(t *testing.T, out string, n int) {
		if n < 0 || n > 10000 {
			return
		}
		for i, st := range parseSlurmStates(out, map[string]int{"100": 0}, n) {
			if i < 0 || i >= n || st == "" {
				t.Fatalf("state %q for index %d of %d", st, i, n)
			}
		}
	})
}

func TestSlurmScript(t *testing.T) {
	s := SlurmScript("/shared/sw", "/opt/evogp bin/evogp", 6, SlurmOptions{Partition: "gpu", Time: "2:00:00", CPUsPerTask: 4, Mem: "8G", Account: "lab", Throttle: 3})
	for _, line := range []string{
		"#!/bin/bash\n",
		"#SBATCH --array=0-5%3\n",
		"#SBATCH --output=/shared/sw/logs/task-%a.log\n",
		"#SBATCH --cpus-per-task=4\n",
		"#SBATCH --partition=gpu\n",
		"#SBATCH --time=2:00:00\n",
		"#SBATCH --mem=8G\n",
		"#SBATCH --account=lab\n",
		"#SBATCH --requeue\n",
		"exec '/opt/evogp bin/evogp' task run '/shared/sw'\n",
	} {
		if !strings.Contains(s, line) {
			t.Errorf("script lacks %q:\n%s", line, s)
		}
	}
	// Defaults: throttle DefaultThrottle, no optional lines.
	d := SlurmScript("/d", "/e", 1, SlurmOptions{})
	if !strings.Contains(d, "#SBATCH --array=0-0%32\n") || strings.Contains(d, "--partition") || strings.Contains(d, "--cpus-per-task") {
		t.Errorf("default script:\n%s", d)
	}
	if err := checkSlurmOptions(SlurmOptions{Partition: "a b"}); err == nil {
		t.Error("a partition with a space: want an error")
	}
}

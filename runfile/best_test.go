package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// bestFiles are best.json files written by evogp: main 3f1d7e5's (before
// runfile existed: the identity harness's learn runs and sweep points) and
// this package's.
func bestFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil || len(files) < 10 {
		t.Fatalf("testdata best.json files: %v (%d)", err, len(files))
	}
	return files
}

// TestReadBestOfEarlierRuns: every best.json written by main 3f1d7e5 and
// since reads and passes Check, and writing what was read gives the file's
// bytes back, so Best declares every field the learner writes and loses
// none (an older file has no objective_record, which is omitted).
func TestReadBestOfEarlierRuns(t *testing.T) {
	for _, path := range bestFiles(t) {
		b, err := ReadBest(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeBest(b)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: read and written again differs from the file:\n%s", path, firstDiff(got, want))
		}
		old := strings.Contains(path, "main-3f1d7e5")
		if old != (b.ObjectiveRecord == nil) {
			t.Errorf("%s: objective_record = %v", path, b.ObjectiveRecord)
		}
	}
}

// TestReadBestFields checks a few fields of known files by hand.
func TestReadBestFields(t *testing.T) {
	b, err := ReadBest(filepath.Join("testdata", "main-3f1d7e5", "L-smoke2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if b.Config != "smoke" || b.Seed != 2 || !reflect.DeepEqual(b.Learn, []string{"routing", "ranking"}) || b.Scope != "all" || b.RoutingTree.Tree == nil {
		t.Errorf("L-smoke2: config %q seed %d learn %v scope %q routing %v", b.Config, b.Seed, b.Learn, b.Scope, b.RoutingTree.Tree)
	}
	if b.Test == nil || b.Test.BestBaseline != b.BestBaseline || b.Test.Basis() != BasisValidation {
		t.Errorf("L-smoke2: test table %+v, run's best baseline %q", b.Test, b.BestBaseline)
	}
	f, err := ReadBest(filepath.Join("testdata", "main-3f1d7e5", "L-front.json"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Front == nil || len(f.Front.Members) == 0 || f.Front.Pick >= len(f.Front.Members) {
		t.Fatalf("L-front: front %+v", f.Front)
	}
	c, err := ReadBest(filepath.Join("testdata", "current", "S-seed-1_objective.omega-0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r := c.ObjectiveRecord; r == nil || r.Kind != "single" || !r.ReadsOmega() || r.ReadsWeights() || *r.Omega != 0 {
		t.Errorf("sweep point ω = 0: objective_record %v", r)
	}
	if !strings.HasPrefix(c.Objective, "single omega=0 ") {
		t.Errorf("the prose objective is kept: %q", c.Objective)
	}
}

func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "line " + strings.TrimSpace(la[i]) + "\nwant " + strings.TrimSpace(lb[i])
		}
	}
	return "lengths differ"
}

// TestBestErrorsNameFileAndField: bad input gives one error naming the
// file and, for a bad value, the field.
func TestBestErrorsNameFileAndField(t *testing.T) {
	for _, c := range []struct{ json, field, says string }{
		{`{"seed": "one"}`, "seed", "got a JSON string, want uint64"},
		{`{"tree": ["+", "d"]}`, "tree", ""},
		{`{"tree": ["zz"]}`, "tree", ""},
		{`{"terminals": ["nope"]}`, "terminals", ""},
		{`{"routing_tree": ["+", "W"]}`, "routing_tree", ""},
		{`{"front": {"members": [{"validation": "x"}]}}`, "front.members.validation", "want []float64"},
		{`{"objective_record": {"kind": "single", "omega": 2}}`, "objective_record", "must be in [0, 1]"},
		{`{"objective_record": {"kind": ""}}`, "objective_record", `"kind" is empty`},
		{`{"infix": "d",`, "", "not valid JSON"},
		{`[1, 2]`, "", ""},
	} {
		_, err := DecodeBest("run/best.json", []byte(c.json))
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v, want a *FieldError", c.json, err)
			continue
		}
		if fe.Path != "run/best.json" || fe.Field != c.field || !strings.HasPrefix(err.Error(), "run/best.json: ") || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %q (field %q), want field %q saying %q", c.json, err, fe.Field, c.field, c.says)
		}
	}
	if _, err := LoadBest(filepath.Join(t.TempDir(), BestFile)); err == nil || !strings.Contains(err.Error(), "read best.json") {
		t.Errorf("missing file: %v", err)
	}
}

// TestBestCheck: a learner's best.json must hold a tree over its
// terminals and, with a routing tree, learn, scope and routing terminals.
func TestBestCheck(t *testing.T) {
	for _, c := range []struct{ json, says string }{
		{`{"infix": "d"}`, `no "tree"`},
		{`{"tree": ["+", "d", "w"], "terminals": ["d", "q", "u", "g"]}`, "outside the terminal set"},
		{`{"tree": "d", "routing_tree": "W"}`, `"learn" does not list routing`},
		{`{"tree": "d", "learn": ["routing", "ranking"]}`, "the routing tree is missing"},
		{`{"tree": "d", "learn": ["routing", "ranking"], "routing_tree": "W", "scope": "some"}`, `"scope" = "some"`},
		{`{"tree": "d", "learn": ["routing", "ranking"], "routing_tree": "W", "scope": "all", "routing_terminals": ["C"]}`, "outside its routing_terminals"},
		{`{"tree": "d", "learn": ["routing", "ranking"], "routing_tree": "W", "scope": "all", "routing_terminals": ["W"]}`, ""},
		{`{"tree": ["*", "g", "d"]}`, ""},
	} {
		b, err := DecodeBest("best.json", []byte(c.json))
		if err != nil {
			t.Errorf("%s: %v", c.json, err)
			continue
		}
		err = b.Check()
		if c.says == "" && err != nil || c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)) {
			t.Errorf("%s: Check = %v, want %q", c.json, err, c.says)
		}
	}
}

// TestWriteBest writes atomically the bytes EncodeBest gives, and they
// read back equal.
func TestWriteBest(t *testing.T) {
	b, err := ReadBest(filepath.Join("testdata", "current", "L-smoke2.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteBest(dir, b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadBest(filepath.Join(dir, BestFile))
	if err != nil {
		t.Fatal(err)
	}
	x, _ := json.Marshal(b)
	y, _ := json.Marshal(back)
	if !bytes.Equal(x, y) {
		t.Error("best.json written and read back differs")
	}
}

// FuzzDecodeBest: any input either decodes (and then Check and a second
// encoding do not fail or panic) or gives one *FieldError naming the
// file and, if any, a top-level field of the input.
func FuzzDecodeBest(f *testing.F) {
	for _, path := range bestFiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"tree": ["+", "d"]}`))
	f.Add([]byte(`{"objective_record": {"kind": "multi", "weights": [1, -1, 1]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := DecodeBest("x/best.json", data)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Path != "x/best.json" || !strings.HasPrefix(err.Error(), "x/best.json: ") {
				t.Fatalf("error %v: want a *FieldError naming x/best.json", err)
			}
			if fe.Field != "" {
				var fields map[string]json.RawMessage
				if json.Unmarshal(data, &fields) == nil {
					if _, ok := fields[fe.Field]; !ok && !strings.Contains(fe.Field, ".") {
						t.Fatalf("error names field %q, not a field of the input", fe.Field)
					}
				}
			}
			return
		}
		_ = b.Check()
		_, _ = b.DisplayFormulas()
		if _, err := EncodeBest(b); err != nil {
			t.Fatalf("decoded but cannot encode: %v", err)
		}
	})
}

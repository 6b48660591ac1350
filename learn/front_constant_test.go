package learn

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Hand case: objective a varies on instance 1 only, b is equal on each
// instance (1.0 on 0, 2.0 on 1 — constant across candidates, not across
// instances), c differs by 0.05 % (within the tolerance), size is skipped.
func TestConstantObjectivesHandCase(t *testing.T) {
	f := &frontState{names: []string{"a", "b", "c", "size"}, comp: map[cacheKey][]float64{
		{1, 0}: {1, 1, 1.0000, 0},
		{2, 0}: {1, 1, 1.0005, 0},
		{1, 1}: {1, 2, 0.5, 0},
		{2, 1}: {3, 2, 0.5, 0},
		{3, 1}: {1, 2, 0.5, 0},
	}}
	got := f.constantObjectives()
	if len(got) != 2 || !strings.HasPrefix(got[0], "objective b is constant on the training set") ||
		!strings.HasPrefix(got[1], "objective c is constant on the training set") {
		t.Fatalf("warnings %q; want b and c constant, a not", got)
	}
	if !strings.Contains(got[0], "the 3 candidates") || !strings.Contains(got[0], "2 training instances") {
		t.Errorf("warning %q: want 3 candidates on 2 instances", got[0])
	}
	// 0.2 % apart on one instance: c varies.
	f.comp[cacheKey{3, 0}] = []float64{1, 1, 1.002, 0}
	if got := f.constantObjectives(); len(got) != 1 || !strings.HasPrefix(got[0], "objective b ") {
		t.Errorf("after c varies: %q", got)
	}
	// One candidate: nothing to compare, no warning.
	one := &frontState{names: []string{"a"}, comp: map[cacheKey][]float64{{1, 0}: {1}, {1, 1}: {2}}}
	if got := one.constantObjectives(); got != nil {
		t.Errorf("one candidate: %q", got)
	}
}

// A real run: an objective the candidates cannot move (tardiness on
// instances without deadlines: 0 against SRSF's 0 normalises to 1 for
// every candidate) is reported in best.json and in the printed front; the
// objectives that vary are not.
func TestFrontRunReportsConstantObjective(t *testing.T) {
	cfg := frontConfig(t, "gp.objectives=[avg_jct,max_qt,tardiness]", "objective.weights=[0.5,0.5,0]")
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), settings(t, cfg, out)); err != nil {
		t.Fatal(err)
	}
	f := readBestJSON(t, out).Front
	var constant []string
	for _, w := range f.Warnings {
		if strings.HasPrefix(w, "objective ") {
			constant = append(constant, w)
		}
	}
	if len(constant) != 1 || !strings.HasPrefix(constant[0], "objective tardiness is constant on the training set") {
		t.Fatalf("constant-objective warnings %q; want tardiness alone", constant)
	}
	var buf bytes.Buffer
	if err := f.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "WARNING: objective tardiness is constant on the training set") {
		t.Errorf("printed front does not say so:\n%s", buf.String())
	}
}

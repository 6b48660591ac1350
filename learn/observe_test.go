package learn

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
)

// smallestScreen is a Screen written as outside code would: through the
// index views only. It keeps the n smallest offspring, ties by index.
type smallestScreen struct {
	n     int
	sizes [][]int // per generation: sizes of the offspring offered, and of those kept
	kept  [][]int
}

func (s *smallestScreen) Screen(survivors Population, offspring Members) []int {
	idx := make([]int, offspring.Len())
	sizes := make([]int, offspring.Len())
	for i := range idx {
		idx[i], sizes[i] = i, offspring.Size(i)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return sizes[a] - sizes[b] })
	keep := idx[:min(s.n, len(idx))]
	slices.Sort(keep)
	var kept []int
	for _, i := range keep {
		kept = append(kept, sizes[i])
	}
	s.sizes, s.kept = append(s.sizes, sizes), append(s.kept, kept)
	return keep
}

// logArchive writes down what the loop shows an archive, in order.
type logArchive struct {
	log  []string
	fail int // generation whose Survived fails; -1: none
}

func (a *logArchive) Evaluated(g int, all Members, parents int) {
	a.log = append(a.log, fmt.Sprintf("evaluated %d: %d parents, %d offspring, scored %v", g, parents, all.Len()-parents, !isNaN(all.Fitness(all.Len()-1))))
}

func (a *logArchive) Survived(g int, all, survivors Members) error {
	a.log = append(a.log, fmt.Sprintf("survived %d: %d of %d", g, survivors.Len(), all.Len()))
	if g == a.fail {
		return errors.New("archive full")
	}
	return nil
}

func isNaN(f float64) bool { return f != f }

// A Screen and an Archive defined here run in the loop as the
// simulator's surrogate and front do: the loop breeds Offspring children,
// evaluates the survivors of the screen after the parents, shows every
// archive the evaluated members and then the survivors, and stops on an
// archive's error.
func TestLoopScreenAndArchives(t *testing.T) {
	sel, err := newSelection(configs.GP{Selection: "scalar", Tournament: 3}, Selections(), false)
	if err != nil {
		t.Fatal(err)
	}
	p := newRegression()
	l := toyLoop(sel, p, &countingRecorder{}, 1)
	l.Generations, l.Offspring = 3, 2*l.Size
	screen := &smallestScreen{n: l.Size}
	a, b := &logArchive{fail: -1}, &logArchive{fail: -1}
	l.Screen, l.Archives = screen, []Archive{a, b}
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"evaluated 0: 40 parents, 0 offspring, scored true", "survived 0: 40 of 40"}
	for g := 1; g <= 3; g++ {
		want = append(want, fmt.Sprintf("evaluated %d: 40 parents, 40 offspring, scored true", g), fmt.Sprintf("survived %d: 40 of 80", g))
	}
	if !slices.Equal(a.log, want) || !slices.Equal(b.log, want) {
		t.Fatalf("archives saw\n%s\nand\n%s\nwant\n%s", strings.Join(a.log, "\n"), strings.Join(b.log, "\n"), strings.Join(want, "\n"))
	}
	if len(screen.sizes) != 3 {
		t.Fatalf("screen called %d times, want once per generation after 0", len(screen.sizes))
	}
	for g, sizes := range screen.sizes {
		if len(sizes) != 80 || len(screen.kept[g]) != 40 {
			t.Fatalf("generation %d: screen offered %d, kept %d", g+1, len(sizes), len(screen.kept[g]))
		}
		sorted := slices.Sorted(slices.Values(sizes))
		if slices.Max(screen.kept[g]) > sorted[39] {
			t.Errorf("generation %d: kept a member of size %d, larger than the 40th smallest %d", g+1, slices.Max(screen.kept[g]), sorted[39])
		}
	}

	l = toyLoop(sel, newRegression(), &countingRecorder{}, 1)
	l.Generations = 3
	fail := &logArchive{fail: 2}
	l.Archives = []Archive{fail}
	if err := l.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "archive full") {
		t.Fatalf("error %v, want the archive's", err)
	}
	if last := fail.log[len(fail.log)-1]; last != "survived 2: 40 of 80" {
		t.Fatalf("the loop went on after the archive's error: %s", last)
	}
}

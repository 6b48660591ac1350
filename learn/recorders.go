package learn

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/evogp/evogp/internal/progress"
)

// The recorders a run installs in its loop (runner.loop). They, not the
// loop, do a run's I/O during the generations.

// validationRecorder appends the validation score of the generation's
// best member to the curve every gp.validate_every generations and at the
// last one (a simulation, not I/O, but it must precede the checkpoint,
// which saves the curve).
type validationRecorder struct{ r *runner }

func (validationRecorder) Init(int, int) error { return nil }
func (validationRecorder) Done(error) error    { return nil }

func (v validationRecorder) Record(ctx context.Context, gen *Generation) error {
	r, g := v.r, gen.Number
	if k := r.cfg.GP.ValidateEvery; k > 0 && (g%k == 0 || g == r.cfg.GP.Generations) {
		if err := r.validateBest(ctx, g); err != nil {
			if ctx.Err() != nil && g > 0 {
				return &InterruptedError{Dir: r.dir, Generation: g - 1, Err: ctx.Err()}
			}
			return fmt.Errorf("learn: generation %d: %w", g, err)
		}
	}
	return nil
}

// checkpointRecorder writes the checkpoint after every generation
// (checkpoint.go's format).
type checkpointRecorder struct{ r *runner }

func (checkpointRecorder) Init(int, int) error                         { return nil }
func (checkpointRecorder) Done(error) error                            { return nil }
func (c checkpointRecorder) Record(context.Context, *Generation) error { return c.r.checkpoint() }

// snapshotRecorder calls Settings.OnGeneration.
type snapshotRecorder struct{ r *runner }

func (snapshotRecorder) Init(int, int) error { return nil }
func (snapshotRecorder) Done(error) error    { return nil }

func (s snapshotRecorder) Record(_ context.Context, g *Generation) error {
	r := s.r
	snap := Snapshot{Row: g.Row, Subset: r.subset, Population: make([]Member, len(r.pop))}
	for i, c := range r.pop {
		snap.Population[i] = Member{Tree: c.tree, Routing: c.routing, Fitness: c.fitness}
	}
	r.s.OnGeneration(snap)
	return nil
}

// generationsRecorder writes generations.parquet when the loop has run
// every generation (the rows, wall times included, are also in the
// checkpoint, so a resumed run writes the same file).
type generationsRecorder struct{ r *runner }

func (generationsRecorder) Init(int, int) error                       { return nil }
func (generationsRecorder) Record(context.Context, *Generation) error { return nil }

func (w generationsRecorder) Done(err error) error {
	if err != nil {
		return nil
	}
	if err := w.r.writeGenerations(filepath.Join(w.r.dir, GenerationsFile)); err != nil {
		return &writeError{err}
	}
	return nil
}

// checkpoint writes the state after generation r.gen.
func (r *runner) checkpoint() error {
	rng, err := r.pcg.MarshalBinary()
	if err != nil {
		return fmt.Errorf("learn: checkpoint: %w", err)
	}
	ck := &checkpoint{
		Version: checkpointVersion, ConfigHash: r.configHash, DataHash: r.dataHash,
		Generation: r.gen, RNG: rng, HallOfFame: r.hall, Rows: r.rows, Curve: r.curve,
		CacheEntries: len(r.ev.log),
	}
	for _, c := range r.pop {
		m := member{Tree: c.tree, Routing: RoutingTree{Tree: c.routing}, Fitness: c.fitness, Objectives: c.objs}
		if p := r.cfg.GP.ParentSelection; p != "" && p != "tournament" {
			m.Cases = c.cases
		}
		ck.Population = append(ck.Population, m)
	}
	if r.front != nil {
		ck.Front = r.front.checkpoint()
	}
	ck.Surrogate = r.surrogateState()
	if err := saveCheckpoint(filepath.Join(r.dir, CheckpointDir), ck, r.ev.log[r.flushed:]); err != nil {
		return &writeError{fmt.Errorf("learn: %w", err)}
	}
	r.flushed = len(r.ev.log)
	r.saved = r.gen
	return nil
}

// progressRecorder is the progress display (bar on a terminal, log lines
// otherwise, nothing when quiet): after each generation its number, best
// and median mean normalised objective (fitness / α, SRSF = 1),
// evaluations per second and the cache hit rate.
type progressRecorder struct {
	r   *runner
	bar *progress.Reporter
}

func (p *progressRecorder) Init(first, last int) error {
	p.bar = progress.New("learn", last+1, p.r.s.Progress)
	p.bar.Add(first)
	return nil
}

func (p *progressRecorder) Record(_ context.Context, g *Generation) error {
	row, st, wall := g.Row, g.Stats, g.Row.WallSeconds
	a := float64(p.r.cfg.GP.Subset)
	rate := 0.0
	if wall > 0 {
		rate = float64(st.Evaluations) / wall
	}
	hit := 0.0
	if n := st.Evaluations + st.CacheHits; n > 0 {
		hit = 100 * float64(st.CacheHits) / float64(n)
	}
	pruned := ""
	if st.Pruned > 0 {
		pruned = fmt.Sprintf(" pruned %d", st.Pruned)
	}
	p.bar.Describe(fmt.Sprintf("gen %d/%d best %.4f median %.4f %.0f evals/s cache %.0f%%%s",
		row.Generation, p.r.cfg.GP.Generations, row.Best/a, row.Median/a, rate, hit, pruned))
	p.bar.Add(1)
	return nil
}

func (p *progressRecorder) Done(error) error {
	p.bar.Finish()
	return nil
}

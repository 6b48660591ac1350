package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/runfile"
)

// LearnedObjectiveWarnings says, for every policy read from a learner
// run (LABEL=RUN_DIR or LABEL=best.json), when the objective it was
// learned under (best.json's "objective") differs from the one eval
// scores it under: a formula learned under Eq. 16 and evaluated under
// Eq. 5 is ranked on a criterion it was not selected for.
func LearnedObjectiveWarnings(ps []Policy, sim SimSettings) ([]string, error) {
	obj, err := sim.Objective.Resolve()
	if err != nil {
		return nil, err
	}
	scored := obj.String()
	record, err := sim.Objective.Record()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range ps {
		path, ok := learnedBestPath(p)
		if !ok {
			continue
		}
		best, err := runfile.LoadBest(path)
		if err != nil {
			return nil, fmt.Errorf("scheduler %s: %w", p.Label, err)
		}
		if !sameObjective(best, scored, record) {
			out = append(out, fmt.Sprintf("%s was learned under the objective %s but is scored here under %s: its ranks and ratios measure a criterion it was not selected for (give eval the run's objective flags to score it as learned)",
				p.Label, best.Objective, scored))
		}
	}
	return out, nil
}

// sameObjective reports whether best was learned under the objective
// eval scores with: by best.json's objective record, or for a best.json
// written before the record existed by its prose (simcore's Describe,
// which names every parameter its kind reads). A best.json that records
// neither is not checked.
func sameObjective(best *runfile.Best, scored string, record runfile.Objective) bool {
	if best.ObjectiveRecord != nil {
		return best.ObjectiveRecord.Equal(record)
	}
	return best.Objective == "" || best.Objective == scored
}

// learnedBestPath is the best.json a LABEL=SOURCE policy was read from,
// if its source is a learner run rather than a formula.
func learnedBestPath(p Policy) (string, bool) {
	if p.Source == "" {
		return "", false
	}
	_, src, ok := strings.Cut(p.Spec, "=")
	if !ok || strings.HasPrefix(src, "formula:") {
		return "", false
	}
	src = strings.TrimPrefix(src, "run:")
	if !strings.HasSuffix(strings.ToLower(src), ".json") {
		src = filepath.Join(src, runfile.BestFile)
	}
	// A run no longer where it was (a task collected elsewhere) is not
	// checked.
	if st, err := os.Stat(src); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return src, true
}

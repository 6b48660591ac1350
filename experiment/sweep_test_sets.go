package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// sweepTestSets returns, per row of a sweep directory's table, the test
// set its point was scored on: the "test"."split" of the point's
// best.json (e.g. `4 instances generated from seed 2 (split "test")`),
// "" for a point not finished. The trade-off figure never averages rows
// of different test sets. nil when no point names one (an old sweep).
func sweepTestSets(dir string, rows []reports.SweepRow) ([]string, error) {
	out := make([]string, len(rows))
	named := false
	for i, r := range rows {
		path := filepath.Join(pointDirOf(dir, r), runfile.BestFile)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		b, err := runfile.DecodeBest(path, data)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		if b.Test != nil && b.Test.Split != "" {
			out[i], named = b.Test.Split, true
		}
	}
	if !named {
		return nil, nil
	}
	return out, nil
}

package runfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"

	"github.com/evogp/evogp/internal/atomicio"
)

// HallColumns are hall_of_fame.csv's columns: rank (1 = best), the mean
// normalised training score and its generation, the validation score,
// size, depth, hash, the formula in readable notation, whether the row is
// the run's chosen (reduced) individual, the formula as evolved and
// simplified, whether that is a constant, and same_as (the rank of an
// earlier row computing the same); with a routing tree (two-tree runs)
// the routing tree's readable, evolved and simplified forms follow.
func HallColumns(routing bool) []string {
	cols := []string{"rank", "train_score", "generation", "validation_score", "size", "depth", "hash", "readable", "reduced", "formula", "simplified", "constant", "same_as"}
	if routing {
		cols = append(cols, "routing_readable", "routing", "routing_simplified")
	}
	return cols
}

// Hall is the content of hall_of_fame.csv: Rows in rank order, each with
// one field per column of HallColumns(Routing).
type Hall struct {
	Routing bool
	Rows    [][]string
}

// Columns are the hall's column names.
func (h *Hall) Columns() []string { return HallColumns(h.Routing) }

// Column is the index of the column named name, or -1.
func (h *Hall) Column(name string) int { return slices.Index(h.Columns(), name) }

// WriteHall writes h as path, atomically.
func WriteHall(path string, h *Hall) error {
	cols := h.Columns()
	for i, r := range h.Rows {
		if len(r) != len(cols) {
			return fmt.Errorf("write %s: row %d has %d fields, want %d (%v)", path, i+1, len(r), len(cols), cols)
		}
	}
	return atomicio.WriteFile(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(cols)
		for _, r := range h.Rows {
			cw.Write(r)
		}
		cw.Flush()
		return cw.Error()
	})
}

// ReadHall reads a hall_of_fame.csv: its header must be HallColumns of a
// one- or a two-tree run and every row as long. It returns nil, nil when
// the file does not exist (a run not finished).
func ReadHall(path string) (*Hall, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", HallFile, err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty: no header", path)
	}
	h := &Hall{Routing: len(recs[0]) > len(HallColumns(false))}
	if !slices.Equal(recs[0], h.Columns()) {
		return nil, fmt.Errorf("%s: header %v: want %v or %v", path, recs[0], HallColumns(false), HallColumns(true))
	}
	h.Rows = recs[1:]
	return h, nil
}

package philly

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evogp/evogp/datasets"
)

// VC is one virtual cluster of the VC file with its node count.
type VC struct {
	ID    string
	Nodes int
}

// ReadVCFile reads a VC file such as helios_philly_vc.csv: a header
// `vc,node num` (any names; the first column is the VC id, the second its
// node count) and one row per VC. VCs come back in file order. A VC listed
// twice, an empty id or a node count that is not an integer ≥ 1 is an
// error naming the file and line.
func ReadVCFile(path string) ([]VC, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("VC file: %w", err)
	}
	defer f.Close()
	return ReadVCs(f, path)
}

// ReadVCs reads VC rows (see ReadVCFile) from r; name names it in errors.
func ReadVCs(r io.Reader, name string) ([]VC, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 2
	fail := func(line int, err error) error { return &datasets.FileError{File: name, Line: line, Err: err} }
	if _, err := cr.Read(); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fail(0, errors.New("empty VC file: want a header `vc,node num` and one row per VC"))
		}
		return nil, csvError(name, 0, err)
	}
	var vcs []VC
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, len(vcs)+1, err)
		}
		line, _ := cr.FieldPos(0)
		id := strings.TrimSpace(rec[0])
		if id == "" || strings.ContainsAny(id, ",= \t") {
			return nil, fail(line, fmt.Errorf("VC id %q: must be non-empty without '=' or spaces", id))
		}
		if prev, dup := seen[id]; dup {
			return nil, fail(line, fmt.Errorf("VC %s listed twice (first on line %d)", id, prev))
		}
		seen[id] = line
		n, err := strconv.ParseInt(strings.TrimSpace(rec[1]), 10, 32)
		if err != nil || n < 1 {
			return nil, fail(line, fmt.Errorf("VC %s: node count %q: must be an integer ≥ 1", id, rec[1]))
		}
		vcs = append(vcs, VC{ID: id, Nodes: int(n)})
	}
	if len(vcs) == 0 {
		return nil, fail(0, errors.New("no VCs listed"))
	}
	return vcs, nil
}

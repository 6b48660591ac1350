package learn

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/simcore"
)

// Files of a run directory.
const (
	ConfigFile      = "config.yaml"
	GenerationsFile = "generations.parquet"
	HallFile        = "hall_of_fame.csv"
	BestFile        = "best.json"
	FormulaGoFile   = "formula.go.txt" // not .go: a run directory must never be a Go package
	FormulaTeXFile  = "formula.tex"
	PlotName        = "convergence" // convergence.png and convergence.svg
	CheckpointDir   = "checkpoint"
	stateFile       = "state.json"
	cacheFile       = "cache.bin"
)

// checkpointVersion is the layout version of checkpoint/state.json.
const checkpointVersion = 1

// checkpoint is checkpoint/state.json: everything the generation loop needs
// to continue exactly where it stopped. The fitness cache is kept beside it
// in cache.bin, an append-only log of (hash, instance, value) records of 20
// bytes (a bound record has boundFlag set in its instance field), also 20
// bytes; CacheEntries says how many of them belong to this checkpoint (a
// crash between the two writes leaves extra records, which resume
// truncates). The cache does not change any fitness — a hit returns what a
// simulation would — but it is kept so that the per-generation evaluation
// and cache-hit counts of a resumed run equal those of an uninterrupted one.
type checkpoint struct {
	Version      int              `json:"version"`
	ConfigHash   string           `json:"config_hash"`
	DataHash     string           `json:"data_hash"`
	Generation   int              `json:"generation"` // last completed generation
	RNG          []byte           `json:"rng"`        // master PCG state (MarshalBinary)
	Population   []member         `json:"population"` // sorted best first
	HallOfFame   []HallEntry      `json:"hall_of_fame"`
	Rows         []GenerationRow  `json:"rows"`
	Curve        []CurvePoint     `json:"validation_curve"`
	CacheEntries int              `json:"cache_entries"`
	Front        *frontCheckpoint `json:"front,omitempty"` // gp.selection: nsga2
}

// member is a population member in the checkpoint. The fitness is needed:
// the next generation's tournament uses it.
type member struct {
	Tree    *expr.Tree `json:"tree"`
	Fitness float64    `json:"fitness"`
	// Objectives are the member's objective vector (gp.selection: nsga2).
	Objectives []float64 `json:"objectives,omitempty"`
}

// ConfigHash is the SHA-256 of the resolved config's YAML with gp.workers
// set to 0 and without the gp.early_stop line: neither the number of
// workers nor early stopping changes a result, so a run may be resumed with
// either changed (and a checkpoint written before gp.early_stop existed
// keeps its hash).
func ConfigHash(c configs.Config) (string, error) {
	c.GP.Workers = 0
	c.GP.EarlyStop = true
	b, err := c.Marshal()
	if err != nil {
		return "", fmt.Errorf("config hash: %w", err)
	}
	line := []byte("\n  early_stop: true\n")
	if bytes.Count(b, line) != 1 {
		return "", fmt.Errorf("config hash: gp.early_stop not found once in the marshalled config")
	}
	b = bytes.Replace(b, line, []byte("\n"), 1)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// dataHash fingerprints the training and validation instances, so a resume
// against other data files is refused.
func dataHash(train, val []simcore.Instance) string {
	h := sha256.New()
	var buf [8]byte
	put := func(v int64) {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	for _, split := range [][]simcore.Instance{train, val} {
		put(int64(len(split)))
		for _, in := range split {
			put(int64(len(in.Name)))
			io.WriteString(h, in.Name)
			put(int64(len(in.Clusters)))
			for _, c := range in.Clusters {
				put(int64(c.Nodes))
				put(int64(c.GPUsPerNode))
				put(int64(len(c.GPUType)))
				io.WriteString(h, c.GPUType)
			}
			put(int64(len(in.Jobs)))
			for _, j := range in.Jobs {
				for _, v := range []int64{j.ID, j.Arrival, int64(j.Cluster), j.Duration, int64(j.Workers), int64(j.GPUs), int64(j.Priority), j.Deadline} {
					put(v)
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

const cacheRecord = 20 // bytes: hash u64, instance u32, value f64 bits

// boundFlag marks, in a cache record's instance field, a strict lower bound
// of the term (left by an early-stopped simulation) rather than its exact
// value. Instance indices never reach it, so older cache files read the same.
const boundFlag = 1 << 31

// appendCache appends entries to dir/cache.bin.
func appendCache(dir string, entries []cacheEntry) error {
	if len(entries) == 0 {
		return nil
	}
	path := filepath.Join(dir, cacheFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("checkpoint cache: %w", err)
	}
	buf := make([]byte, 0, len(entries)*cacheRecord)
	for _, e := range entries {
		buf = binary.LittleEndian.AppendUint64(buf, e.key.hash)
		inst := uint32(e.key.inst)
		if e.bound {
			inst |= boundFlag
		}
		buf = binary.LittleEndian.AppendUint32(buf, inst)
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(e.value))
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return fmt.Errorf("checkpoint cache: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("checkpoint cache: %w", err)
	}
	return nil
}

// readCache reads the first n records of dir/cache.bin and truncates the
// file to them.
func readCache(dir string, n int) ([]cacheEntry, error) {
	path := filepath.Join(dir, cacheFile)
	if n == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("checkpoint cache: %w", err)
		}
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint cache: %w", err)
	}
	buf := make([]byte, n*cacheRecord)
	_, err = io.ReadFull(f, buf)
	f.Close()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		// A hard kill can cut the cache short. It is only a cache: drop
		// it, and the resumed run recomputes what it held (the same
		// values, so the same results; only the evaluation counts of
		// the remaining generations differ).
		slog.Warn("checkpoint cache is shorter than its state says; dropping it (its values are recomputed)", "file", path, "want_records", n)
		if err := os.Truncate(path, 0); err != nil {
			return nil, fmt.Errorf("checkpoint cache: %w", err)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint cache %s: want %d records: %w", path, n, err)
	}
	if err := os.Truncate(path, int64(len(buf))); err != nil {
		return nil, fmt.Errorf("checkpoint cache: %w", err)
	}
	out := make([]cacheEntry, n)
	for i := range out {
		b := buf[i*cacheRecord:]
		inst := binary.LittleEndian.Uint32(b[8:])
		out[i] = cacheEntry{
			key:   cacheKey{hash: binary.LittleEndian.Uint64(b), inst: int32(inst &^ boundFlag)},
			value: math.Float64frombits(binary.LittleEndian.Uint64(b[12:])),
			bound: inst&boundFlag != 0,
		}
	}
	return out, nil
}

// saveCheckpoint appends the cache entries not yet on disk, then replaces
// state.json atomically. The order makes every state.json consistent with
// the cache file: the records it counts are always already written.
func saveCheckpoint(dir string, ck *checkpoint, newEntries []cacheEntry) error {
	for _, m := range ck.Population {
		if math.IsNaN(m.Fitness) || math.IsInf(m.Fitness, 0) {
			return fmt.Errorf("checkpoint: fitness %v of %s cannot be stored", m.Fitness, m.Tree)
		}
	}
	if err := appendCache(dir, newEntries); err != nil {
		return err
	}
	b, err := json.MarshalIndent(ck, "", " ")
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return atomicio.WriteBytes(filepath.Join(dir, stateFile), b)
}

// loadCheckpoint reads dir/state.json and the cache records it counts.
func loadCheckpoint(dir string) (*checkpoint, []cacheEntry, error) {
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: %w", err)
	}
	var ck checkpoint
	if err := json.Unmarshal(b, &ck); err != nil {
		return nil, nil, fmt.Errorf("checkpoint %s: %w", filepath.Join(dir, stateFile), err)
	}
	if ck.Version != checkpointVersion {
		return nil, nil, fmt.Errorf("checkpoint %s: version %d, this evogp reads %d", dir, ck.Version, checkpointVersion)
	}
	if len(ck.Population) == 0 {
		return nil, nil, fmt.Errorf("checkpoint %s: empty population", dir)
	}
	for i, m := range ck.Population {
		if m.Tree.Size() == 0 {
			return nil, nil, fmt.Errorf("checkpoint %s: population member %d has no tree", dir, i)
		}
	}
	for i := range ck.HallOfFame {
		if ck.HallOfFame[i].Tree.Size() == 0 {
			return nil, nil, fmt.Errorf("checkpoint %s: hall of fame entry %d has no tree", dir, i)
		}
		ck.HallOfFame[i].hash = ck.HallOfFame[i].Tree.Hash()
	}
	entries, err := readCache(dir, ck.CacheEntries)
	if err != nil {
		return nil, nil, err
	}
	return &ck, entries, nil
}

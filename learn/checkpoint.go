package learn

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// Files of a run directory (runfile names them).
const (
	ConfigFile      = runfile.ConfigFile
	GenerationsFile = runfile.GenerationsFile
	HallFile        = runfile.HallFile
	BestFile        = runfile.BestFile
	FormulaGoFile   = runfile.FormulaGoFile
	FormulaTeXFile  = runfile.FormulaTeXFile
	PlotName        = runfile.PlotName
	CheckpointDir   = runfile.CheckpointDir
	stateFile       = "state.json"
	cacheFile       = "cache.bin"
)

// checkpointVersion is the layout version of checkpoint/state.json.
const checkpointVersion = 2

// checkpoint is checkpoint/state.json: everything the generation loop needs
// to continue exactly where it stopped. The file holds it with its SHA-256
// (stateEnvelope). The fitness cache is kept beside it in cache.bin, an
// append-only log of (hash, instance, value, CRC) records of 24 bytes (a
// bound record has boundFlag set in its instance field); CacheEntries says
// how many of them belong to this checkpoint (a crash between the two
// writes leaves extra records, which resume truncates). The cache does not
// change any fitness — a hit returns what a simulation would — but it is
// kept so that the per-generation evaluation and cache-hit counts of a
// resumed run equal those of an uninterrupted one.
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
	// Surrogate is the kNN model's archive (gp.surrogate: knn).
	Surrogate *surrogateCheckpoint `json:"surrogate,omitempty"`
}

// member is a population member in the checkpoint. The fitness is needed:
// the next generation's tournament uses it.
type member struct {
	Tree    *expr.Tree  `json:"tree"`
	Routing RoutingTree `json:"routing,omitzero"` // gp.learn: [routing, ranking]
	Fitness float64     `json:"fitness"`
	// Objectives are the member's objective vector (gp.selection: nsga2).
	Objectives []float64 `json:"objectives,omitempty"`
	// Cases are the member's per-instance terms on the last subset, written
	// only when parent selection reads them (gp.parent_selection:
	// lexicase), so other checkpoints are byte-identical to before.
	Cases []float64 `json:"cases,omitempty"`
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

// Cache record layouts. A version-2 record is 24 bytes: hash u64,
// instance u32, value f64 bits, and the CRC-32C of those 20 bytes. A
// version-1 checkpoint (no integrity check, written by an older evogp) has
// the same fields without the CRC.
const (
	cacheRecord   = 24
	cacheRecordV1 = 20
)

// recordCRC is the CRC-32C (Castagnoli) of a record's first 20 bytes. A
// CRC-32 detects every change confined to 32 consecutive bits, so any
// corruption of one byte of a record (its CRC included) is detected.
func recordCRC(b []byte) uint32 {
	return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
}

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
	if _, err := f.Write(encodeCache(entries)); err != nil {
		f.Close()
		return fmt.Errorf("checkpoint cache: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("checkpoint cache: %w", err)
	}
	return nil
}

// encodeCache is the version-2 encoding of entries.
func encodeCache(entries []cacheEntry) []byte {
	buf := make([]byte, 0, len(entries)*cacheRecord)
	for _, e := range entries {
		start := len(buf)
		buf = binary.LittleEndian.AppendUint64(buf, e.key.hash)
		inst := uint32(e.key.inst)
		if e.bound {
			inst |= boundFlag
		}
		buf = binary.LittleEndian.AppendUint32(buf, inst)
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(e.value))
		buf = binary.LittleEndian.AppendUint32(buf, recordCRC(buf[start:]))
	}
	return buf
}

// readCache reads the first n records (of size rec) of dir/cache.bin and
// leaves the file holding exactly the records it returns. It is only a
// cache — a hit returns what a simulation would — so a record that is
// missing (a hard kill cut the file short) or fails its CRC is dropped
// with a warning and recomputed when needed: the results stay the same,
// only the evaluation counts of the remaining generations differ.
func readCache(dir string, n, rec int) ([]cacheEntry, []string, error) {
	path := filepath.Join(dir, cacheFile)
	if n == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("checkpoint cache: %w", err)
		}
		return nil, nil, nil
	}
	var warnings []string
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, []string{fmt.Sprintf("checkpoint cache %s is missing (the state counts %d records); its values are recomputed", path, n)}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint cache: %w", err)
	}
	buf := make([]byte, n*rec)
	got, err := io.ReadFull(f, buf)
	f.Close()
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("checkpoint cache %s: want %d records: %w", path, n, err)
	}
	if got < len(buf) {
		warnings = append(warnings, fmt.Sprintf("checkpoint cache %s holds %d of the %d records its state counts (cut short); the missing ones are recomputed", path, got/rec, n))
		buf = buf[:got/rec*rec]
	}
	out := make([]cacheEntry, 0, len(buf)/rec)
	bad := 0
	for i := 0; i+rec <= len(buf); i += rec {
		b := buf[i : i+rec]
		if rec == cacheRecord && recordCRC(b[:20]) != binary.LittleEndian.Uint32(b[20:]) {
			bad++
			continue
		}
		inst := binary.LittleEndian.Uint32(b[8:])
		out = append(out, cacheEntry{
			key:   cacheKey{hash: binary.LittleEndian.Uint64(b), inst: int32(inst &^ boundFlag)},
			value: math.Float64frombits(binary.LittleEndian.Uint64(b[12:])),
			bound: inst&boundFlag != 0,
		})
	}
	if bad > 0 {
		warnings = append(warnings, fmt.Sprintf("checkpoint cache %s: %d of %d records fail their checksum (the file is corrupted); they are dropped and recomputed", path, bad, len(buf)/rec))
	}
	if rec != cacheRecord || len(out) != n {
		// Rewrite the file to hold exactly the kept records, in the
		// current layout, so that later appends extend it consistently.
		if err := atomicio.WriteBytes(path, encodeCache(out)); err != nil {
			return nil, nil, fmt.Errorf("checkpoint cache: %w", err)
		}
	} else if err := os.Truncate(path, int64(len(buf))); err != nil {
		return nil, nil, fmt.Errorf("checkpoint cache: %w", err)
	}
	return out, warnings, nil
}

// stateEnvelope is the layout of a version-2 state.json: the checkpoint
// as indented JSON in state, and the SHA-256 of exactly those bytes.
type stateEnvelope struct {
	SHA256 string          `json:"sha256"`
	State  json.RawMessage `json:"state"`
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
	b, err := encodeState(ck)
	if err != nil {
		return err
	}
	return atomicio.WriteBytes(filepath.Join(dir, stateFile), b)
}

// encodeState is the bytes of state.json for ck.
func encodeState(ck *checkpoint) ([]byte, error) {
	body, err := json.MarshalIndent(ck, "", " ")
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	sum := sha256.Sum256(body)
	var b bytes.Buffer
	b.WriteString(`{"sha256": "` + hex.EncodeToString(sum[:]) + `", "state": `)
	b.Write(body)
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// loadCheckpoint reads dir/state.json and the cache records it counts.
//
// Every checkpoint file is checked: state.json against its SHA-256, each
// cache record against its CRC. A state.json that is missing, unreadable
// as JSON or fails its checksum gives a nil checkpoint (and no error): the
// run then starts again from generation 0, which — the run being
// deterministic — ends with the same result; its cache file is removed.
// Cache records that fail are dropped (see readCache). Each such decision
// is described in the returned warnings; an error is returned only for
// what cannot be repaired by recomputing (an I/O error, a checkpoint of
// another layout version, or one whose intact contents are inconsistent).
func loadCheckpoint(dir string) (*checkpoint, []cacheEntry, []string, error) {
	path := filepath.Join(dir, stateFile)
	ck, rec, why, err := readState(path)
	if err != nil {
		return nil, nil, nil, err
	}
	if ck == nil {
		if _, _, err := readCache(dir, 0, cacheRecord); err != nil {
			return nil, nil, nil, err
		}
		return nil, nil, []string{why + "; the run starts again from generation 0 (same result, recomputed)"}, nil
	}
	var warnings []string
	if rec == cacheRecordV1 {
		warnings = append(warnings, fmt.Sprintf("checkpoint %s was written by an older evogp, without checksums: it is used unchecked", path))
	}
	if len(ck.Population) == 0 {
		return nil, nil, nil, fmt.Errorf("checkpoint %s: empty population", dir)
	}
	for i, m := range ck.Population {
		if m.Tree.Size() == 0 {
			return nil, nil, nil, fmt.Errorf("checkpoint %s: population member %d has no tree", dir, i)
		}
	}
	for i := range ck.HallOfFame {
		if ck.HallOfFame[i].Tree.Size() == 0 {
			return nil, nil, nil, fmt.Errorf("checkpoint %s: hall of fame entry %d has no tree", dir, i)
		}
		ck.HallOfFame[i].hash = individualHash(ck.HallOfFame[i].Routing.Tree, ck.HallOfFame[i].Tree)
	}
	if ck.CacheEntries < 0 {
		return nil, nil, nil, fmt.Errorf("checkpoint %s: cache_entries = %d", dir, ck.CacheEntries)
	}
	entries, cacheWarnings, err := readCache(dir, ck.CacheEntries, rec)
	if err != nil {
		return nil, nil, nil, err
	}
	ck.CacheEntries = len(entries)
	return ck, entries, append(warnings, cacheWarnings...), nil
}

// readState decodes state.json. It returns the checkpoint and the record
// size of its cache file, or a nil checkpoint and why the file cannot be
// used (missing or corrupted).
func readState(path string) (ck *checkpoint, rec int, why string, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, fmt.Sprintf("checkpoint %s does not exist (the run stopped before generation 0 was saved)", path), nil
	}
	if err != nil {
		return nil, 0, "", fmt.Errorf("checkpoint: %w", err)
	}
	corrupted := func(what string) (*checkpoint, int, string, error) {
		return nil, 0, fmt.Sprintf("checkpoint %s is corrupted (%s); it is dropped", path, what), nil
	}
	var env stateEnvelope
	if err := json.Unmarshal(b, &env); err != nil {
		return corrupted(err.Error())
	}
	var c checkpoint
	if env.State == nil {
		// Version 1: the checkpoint itself, without a checksum.
		if err := json.Unmarshal(b, &c); err != nil || c.Version != 1 {
			return corrupted("no state and no version-1 checkpoint")
		}
		return &c, cacheRecordV1, "", nil
	}
	sum := sha256.Sum256(env.State)
	if hex.EncodeToString(sum[:]) != env.SHA256 {
		return corrupted("its SHA-256 does not match")
	}
	if err := json.Unmarshal(env.State, &c); err != nil {
		return nil, 0, "", fmt.Errorf("checkpoint %s: %w", path, err)
	}
	if c.Version != checkpointVersion {
		return nil, 0, "", fmt.Errorf("checkpoint %s: version %d, this evogp reads %d", path, c.Version, checkpointVersion)
	}
	return &c, cacheRecord, "", nil
}

// retagCheckpoint rewrites the run's checkpoint state with configHash and
// nothing else changed: ck is the state as loaded, re-encoded (the cache
// file is untouched).
func retagCheckpoint(dir string, ck *checkpoint, configHash string) error {
	if ck.ConfigHash == configHash {
		return nil
	}
	ck.ConfigHash = configHash
	b, err := encodeState(ck)
	if err != nil {
		return err
	}
	return atomicio.WriteBytes(filepath.Join(dir, CheckpointDir, stateFile), b)
}

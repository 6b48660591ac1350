package tablefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/evogp/evogp/internal/atomicio"
)

// tableFormat returns "parquet" or "csv" from the file extension.
func tableFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet":
		return "parquet", nil
	case ".csv":
		return "csv", nil
	}
	return "", fmt.Errorf("%s: unknown table format %q (want .parquet or .csv)", path, filepath.Ext(path))
}

// Write validates every row with check and writes rows to path atomically,
// as Parquet (".parquet") or CSV (".csv") by extension; a bad row is an
// error naming it and nothing is written.
func Write[T any](path string, rows []T, check func(T) error) error {
	format, err := tableFormat(path)
	if err != nil {
		return err
	}
	for i, r := range rows {
		if err := check(r); err != nil {
			return fmt.Errorf("%s: row %d: %w", path, i+1, err)
		}
	}
	return atomicio.WriteFile(path, func(w io.Writer) error {
		if format == "csv" {
			return writeCSV(w, rows)
		}
		return parquet.Write(w, rows, parquet.Compression(&parquet.Zstd))
	})
}

// Read reads a table written by Write (or by any tool producing the
// columns of T, the parquet tags of its fields) and validates every row
// with check.
func Read[T any](path string, check func(T) error) ([]T, error) {
	format, err := tableFormat(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read table: %w", err)
	}
	defer f.Close()
	var rows []T
	if format == "csv" {
		rows, err = readCSV[T](f)
	} else {
		rows, err = readParquet[T](f)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, r := range rows {
		if err := check(r); err != nil {
			return nil, fmt.Errorf("%s: row %d: %w", path, i+1, err)
		}
	}
	return rows, nil
}

// readParquet reads every row of a Parquet file after checking that it has
// each column of T with the same physical type.
func readParquet[T any](f *os.File) ([]T, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("not a readable Parquet file: %w", err)
	}
	want := parquet.SchemaOf(new(T))
	have := make(map[string]parquet.Field, len(pf.Schema().Fields()))
	for _, fl := range pf.Schema().Fields() {
		have[fl.Name()] = fl
	}
	for _, fl := range want.Fields() {
		got, ok := have[fl.Name()]
		if !ok {
			return nil, fmt.Errorf("missing column %q", fl.Name())
		}
		if !got.Leaf() || got.Repeated() || got.Type().Kind() != fl.Type().Kind() {
			return nil, fmt.Errorf("column %q has type %v, want %v", fl.Name(), got.Type(), fl.Type())
		}
	}
	n := pf.NumRows()
	rows := make([]T, n)
	rd := parquet.NewGenericReader[T](pf)
	defer rd.Close()
	var total int64
	for total < n {
		k, err := rd.Read(rows[total:])
		total += int64(k) // rows delivered together with io.EOF still count
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", total+1, err)
		}
		if k == 0 {
			return nil, fmt.Errorf("reader stalled at row %d of %d", total, n)
		}
	}
	if total != n {
		return nil, fmt.Errorf("read %d rows, file declares %d", total, n)
	}
	return rows, nil
}

// columnsOf lists the exported fields of struct type t with their column
// names (the parquet tag up to the first comma).
func columnsOf(t reflect.Type) []column {
	var cols []column
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if name == "" || name == "-" {
			continue
		}
		cols = append(cols, column{name: name, index: i, kind: f.Type.Kind()})
	}
	return cols
}

type column struct {
	name  string
	index int
	kind  reflect.Kind
}

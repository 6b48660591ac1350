package tablefile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
)

// writeCSV writes a header of column names and one record per row. Floats
// use the shortest representation that parses back to the same float64.
func writeCSV[T any](w io.Writer, rows []T) error {
	cols := columnsOf(reflect.TypeFor[T]())
	cw := csv.NewWriter(w)
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.name
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, r := range rows {
		v := reflect.ValueOf(r)
		for i, c := range cols {
			f := v.Field(c.index)
			switch c.kind {
			case reflect.String:
				rec[i] = f.String()
			case reflect.Int64:
				rec[i] = strconv.FormatInt(f.Int(), 10)
			case reflect.Float64:
				rec[i] = strconv.FormatFloat(f.Float(), 'g', -1, 64)
			default:
				return fmt.Errorf("column %q: unsupported kind %v", c.name, c.kind)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// readCSV reads a CSV table whose header names at least the columns of T
// (in any order; extra columns are ignored).
func readCSV[T any](r io.Reader) ([]T, error) {
	cols := columnsOf(reflect.TypeFor[T]())
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("empty CSV file: no header")
	}
	if err != nil {
		return nil, err
	}
	pos := make(map[string]int, len(header))
	for i, h := range header {
		if _, dup := pos[h]; dup {
			return nil, fmt.Errorf("header: column %q appears twice", h)
		}
		pos[h] = i
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		p, ok := pos[c.name]
		if !ok {
			return nil, fmt.Errorf("missing column %q", c.name)
		}
		idx[i] = p
	}
	var rows []T
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		var row T
		v := reflect.ValueOf(&row).Elem()
		for i, c := range cols {
			s := rec[idx[i]]
			f := v.Field(c.index)
			switch c.kind {
			case reflect.String:
				f.SetString(s)
			case reflect.Int64:
				n, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("line %d: column %q: %q is not an integer", line, c.name, s)
				}
				f.SetInt(n)
			case reflect.Float64:
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, fmt.Errorf("line %d: column %q: %q is not a number", line, c.name, s)
				}
				f.SetFloat(x)
			default:
				return nil, fmt.Errorf("column %q: unsupported kind %v", c.name, c.kind)
			}
		}
		rows = append(rows, row)
	}
}

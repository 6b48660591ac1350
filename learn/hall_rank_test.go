package learn

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/evogp/evogp/expr"
)

// Entries are ranked by validation score, not by their train scores from
// different subsets; ties go to the smaller tree, then the lower hash; NaN
// last; the input is not reordered.
func TestHallByValidation(t *testing.T) {
	hall := []HallEntry{
		{Tree: expr.MustParse("g * d + q"), Score: 0.1, Validation: 0.9, hash: 1},
		{Tree: expr.MustParse("g * d"), Score: 0.5, Validation: 0.7, hash: 5},
		{Tree: expr.MustParse("d"), Score: 0.3, Validation: 0.7, hash: 9},
		{Tree: expr.MustParse("q"), Score: 0.2, Validation: math.NaN(), hash: 2},
		{Tree: expr.MustParse("a"), Score: 0.9, Validation: 0.7, hash: 3},
	}
	got := hallByValidation(hall)
	var order []uint64
	for _, h := range got {
		order = append(order, h.hash)
	}
	want := []uint64{3, 9, 5, 1, 2} // 0.7 (size 1: hash 3, 9; size 3: 5), 0.9, NaN
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if hall[0].hash != 1 || hall[4].hash != 3 {
		t.Error("the input was reordered")
	}
}

// A finished run's hall_of_fame.csv is ranked by validation_score.
func TestHallCSVRankedOnValidation(t *testing.T) {
	cfg := testConfig(t, "gp.generations=3")
	out := t.TempDir()
	if _, err := Run(context.Background(), settings(t, cfg, out)); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, HallFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range recs[0] {
		if h == "validation_score" {
			col = i
		}
	}
	if col < 0 || len(recs) < 3 {
		t.Fatalf("header %v, %d rows", recs[0], len(recs)-1)
	}
	prev := math.Inf(-1)
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			t.Fatal(err)
		}
		if v < prev {
			t.Fatalf("validation scores not ascending: %v after %v", v, prev)
		}
		prev = v
	}
}

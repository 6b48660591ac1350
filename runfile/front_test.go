package runfile

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrontParquetOfEarlierRun: main 3f1d7e5's front.parquet reads, has
// one row per member of its best.json's front, and WriteFront of that
// front gives the same rows. (The bytes differ only in parquet-go's
// created_by, which names the module version in a built binary and not in
// a test; the identity harness compares the binary's bytes.)
func TestFrontParquetOfEarlierRun(t *testing.T) {
	path := filepath.Join("testdata", "main-3f1d7e5", "L-front.front.parquet")
	rows, err := ReadFront(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadBest(filepath.Join("testdata", "main-3f1d7e5", "L-front.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(b.Front.Members) || rows[0].Label != b.Front.Members[0].Label || !rows[b.Front.Pick].Pick {
		t.Fatalf("%d rows for %d members: %+v", len(rows), len(b.Front.Members), rows)
	}
	out := filepath.Join(t.TempDir(), FrontFile)
	if err := WriteFront(out, b.Front); err != nil {
		t.Fatal(err)
	}
	again, err := ReadFront(out)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", again) != fmt.Sprintf("%+v", rows) { // %+v: NaN equals NaN
		t.Errorf("front.parquet written from best.json's front differs from the run's:\n%+v\n%+v", again, rows)
	}
	if _, err := ReadFront(filepath.Join(t.TempDir(), "none.parquet")); err == nil || !strings.Contains(err.Error(), "none.parquet") {
		t.Errorf("absent file: %v", err)
	}
}

package philly

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReport(t *testing.T) {
	o := syntheticOptions(t)
	o.Splits = []Split{{Name: "train", Window: mustWindow(t, "2017-10-01..2017-10-02")}, {Name: "test", Window: mustWindow(t, "2017-10-02..2017-10-03")}}
	res, err := Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.WriteReport(&b, "synthetic.csv", "out", "csv", 8); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	c := res.Counts
	if want := fmt.Sprintf("read synthetic.csv: %d rows, %d kept as jobs, %d skipped", c.Rows, c.Kept, c.SkippedTotal()); lines[0] != want {
		t.Errorf("head %q, want %q", lines[0], want)
	}
	// Header, one line per reason, the total; then the raised durations.
	if len(lines) < 2+int(NumReasons)+1 {
		t.Fatalf("report too short:\n%s", b.String())
	}
	for r := Reason(0); r < NumReasons; r++ {
		f := strings.Fields(lines[2+int(r)])
		if f[0] != r.String() || f[1] != fmt.Sprint(c.Skipped[r]) {
			t.Errorf("reason line %q: want %s %d", lines[2+int(r)], r, c.Skipped[r])
		}
	}
	if f := strings.Fields(lines[2+int(NumReasons)]); len(f) < 2 || f[0] != "total" || f[1] != fmt.Sprint(c.SkippedTotal()) {
		t.Errorf("total line %q", lines[2+int(NumReasons)])
	}
	rest := strings.Join(lines[2+int(NumReasons):], "\n")
	for _, want := range []string{
		fmt.Sprintf("%d kept jobs had a duration below 1 s and were given 1 s", c.RaisedToOneSecond),
		"cluster  nodes  GPUs  jobs", "a (fixed)", "b (fixed)",
		"2017-10-01..2017-10-02 → " + filepath.Join("out", "train"),
		"2017-10-02..2017-10-03 → " + filepath.Join("out", "test"),
		"wrote 2 dataset(s) as csv to out",
	} {
		if !strings.Contains(rest, want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	// Without splits the one dataset is out itself, named (all).
	o.Splits = nil
	if res, err = Import(strings.NewReader(synthetic), o); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := res.WriteReport(&b, "synthetic.csv", "out", "parquet", 8); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(all)") || !strings.Contains(b.String(), "2017-10-01..2017-10-03 → out\n") {
		t.Errorf("single dataset report:\n%s", b.String())
	}
}

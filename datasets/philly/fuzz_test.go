package philly

import (
	"bytes"
	"github.com/evogp/evogp/internal/tracefiles"
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzImport: Import never panics, and whatever it accepts is a set of valid
// instances whose counts add up.
func FuzzImport(f *testing.F) {
	f.Add([]byte(synthetic), uint8(0))
	f.Add([]byte("timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-01 00:00:00,1,128,128,a\n"), uint8(1))
	f.Add([]byte("cluster,num_gpus,timestamp,duration\nb,2147483647,2017-10-02 00:00:00,9007199254740992\n"), uint8(2))
	f.Add([]byte("timestamp,duration,num_gpus,gpu_time,cluster\n\"2017-10-01 00:00:00\",\"0.0\",\"3\",0,a\n"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		o := Options{
			Name:   "fuzz.csv",
			Window: Window{From: time.Date(2017, 10, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2017, 10, 3, 0, 0, 0, 0, time.UTC)},
			VCs:    []string{"a", "b"},
			Span:   time.Duration(1+int(mode>>4)) * 6 * time.Hour,
		}
		switch mode % 4 {
		case 0:
			o.Nodes = map[string]int{"a": 1, "b": 3}
		case 1:
			o.Nodes, o.Scale = map[string]int{"a": 2, "b": 5}, 0.3
		case 2:
			o.Load = 0.5
		case 3:
			o.SingleCluster, o.SingleNodes = true, 2
		}
		if mode&8 != 0 {
			o.Splits = []Split{
				{Name: "train", Window: Window{From: o.Window.From, To: o.Window.From.Add(30 * time.Hour)}},
				{Name: "test", Window: Window{From: o.Window.From.Add(36 * time.Hour), To: o.Window.To}},
			}
		}
		res, err := Import(bytes.NewReader(data), o)
		if err != nil {
			if len(res.Splits) != 0 {
				t.Fatalf("error %v with datasets", err)
			}
			return
		}
		c := res.Counts
		if c.Kept+c.SkippedTotal() != c.Rows {
			t.Fatalf("kept %d + skipped %d ≠ rows %d", c.Kept, c.SkippedTotal(), c.Rows)
		}
		jobs := 0
		for _, s := range res.Splits {
			for _, in := range s.Dataset.Instances {
				if err := in.Validate(); err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(in.Name, "philly-") {
					t.Fatalf("instance name %q", in.Name)
				}
				jobs += len(in.Jobs)
			}
		}
		if jobs != c.Kept {
			t.Fatalf("%d jobs in instances, %d kept", jobs, c.Kept)
		}
	})
}

// BenchmarkImport imports the whole real trace (every VC that appears in it,
// no window restriction, load-derived capacities).
func BenchmarkImport(b *testing.B) {
	data, err := os.ReadFile(tracefiles.Philly(b, "philly.csv"))
	if err != nil {
		b.Fatal(err)
	}
	o := Options{
		Window: Window{From: time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)},
		VCs:    []string{"6214e9", "7f04ca", "11cb48", "b436b2", "ee9e8c", "e13805", "6c71a0", "2869ce", "ed69ec", "103959", "0e4a51", "23dbec", "51b7ef", "795a4c", "925e2b"},
		Load:   0.8,
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := Import(bytes.NewReader(data), o)
		if err != nil {
			b.Fatal(err)
		}
		if res.Counts.Kept != res.Counts.Rows {
			b.Fatalf("kept %d of %d rows: %+v", res.Counts.Kept, res.Counts.Rows, res.Counts.Skipped)
		}
	}
}

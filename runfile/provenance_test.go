package runfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProvenanceRoundTrip reads provenance.json files written by main
// 3f1d7e5 (a learn run and an eval) and writes them back byte for byte.
func TestProvenanceRoundTrip(t *testing.T) {
	for _, name := range []string{"provenance-learn.json", "provenance-eval.json"} {
		want, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		all, err := ReadProvenance(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(all) == 0 || all[0].Command[0] == "" {
			t.Fatalf("%s: read %+v", name, all)
		}
		out := filepath.Join(t.TempDir(), ProvenanceFile)
		if err := WriteProvenance(out, all); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: written back differs:\n%s\nwant\n%s", name, got, want)
		}
	}
}

// TestProvenanceErrors: a bad file gets one error naming file and field.
func TestProvenanceErrors(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`[{"start":"2026-01-02T00:00:00Z","end":"2026-01-01T00:00:00Z"}]`, "field end"},
		{`[{},{"duration_seconds":-1}]`, "entry 1: field duration_seconds"},
		{`[{"start":"yesterday"}]`, "p.json"},
		{`{`, "p.json"},
	} {
		_, err := DecodeProvenance("p.json", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "p.json") {
			t.Errorf("%s: error %v, want one naming p.json and %q", c.data, err, c.want)
		}
	}
}

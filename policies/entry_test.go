package policies_test

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/policies"
)

func TestParseEntry(t *testing.T) {
	for entry, want := range map[string]policies.Entry{
		"tiresias":                 {Source: "tiresias"},
		"  mct+srtf+bestfit ":      {Source: "mct+srtf+bestfit"},
		"gp=runs/a":                {Labelled: true, Label: "gp", Source: "runs/a"},
		" mine = d + q ":           {Labelled: true, Label: "mine", Source: "d + q"},
		"h=hydra:budget=200":       {Labelled: true, Label: "h", Source: "hydra:budget=200"},
		"=formula:d":               {Labelled: true, Source: "formula:d"},
		"hydra:budget=10":          {Labelled: true, Label: "hydra:budget", Source: "10"},
		"x=":                       {Labelled: true, Label: "x"},
		"srtf=scheduler:mct+srtf+": {Labelled: true, Label: "srtf", Source: "scheduler:mct+srtf+"},
	} {
		if got := policies.ParseEntry(entry); got != want {
			t.Errorf("ParseEntry(%q) = %+v, want %+v", entry, got, want)
		}
	}
}

func TestLabelledWord(t *testing.T) {
	for entry, want := range map[string]bool{
		"gp=runs/a":               true,
		"tiresias":                false,
		"hydra:budget=10":         false, // a spec with a parameter
		"mct+formula+bestfit=d+q": false, // a composed spec, not a word
		"h=hydra:budget=10":       true,
	} {
		if got := policies.LabelledWord(entry); got != want {
			t.Errorf("LabelledWord(%q) = %v, want %v", entry, got, want)
		}
	}
}

func TestSourceReading(t *testing.T) {
	for source, want := range map[string]struct {
		r    policies.Reading
		rest string
	}{
		"runs/a":                     {policies.ReadAny, "runs/a"},
		"scheduler:mct+srtf+bestfit": {policies.ReadScheduler, "mct+srtf+bestfit"},
		"run:gp":                     {policies.ReadRun, "gp"},
		"formula:d+q":                {policies.ReadFormula, "d+q"},
		"scheduler:run:x":            {policies.ReadScheduler, "run:x"},
		"run:formula:x":              {policies.ReadRun, "formula:x"},
		"hydra:budget=1":             {policies.ReadAny, "hydra:budget=1"},
		"Run:gp":                     {policies.ReadAny, "Run:gp"},
	} {
		r, rest := policies.SourceReading(source)
		if r != want.r || rest != want.rest {
			t.Errorf("SourceReading(%q) = %v, %q; want %v, %q", source, r, rest, want.r, want.rest)
		}
	}
}

// FuzzParseEntry: LABEL=SOURCE rebuilds the entry up to space, and a
// reading's rest is the source without exactly its prefix.
func FuzzParseEntry(f *testing.F) {
	for _, s := range []string{"gp=run:a", "tiresias", "=x", "h=hydra:budget=1", " a = scheduler:b "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		e := policies.ParseEntry(entry)
		if e.Labelled != strings.Contains(entry, "=") {
			t.Fatalf("%q: Labelled %v", entry, e.Labelled)
		}
		if e.Label != strings.TrimSpace(e.Label) || e.Source != strings.TrimSpace(e.Source) {
			t.Fatalf("%q: untrimmed %+v", entry, e)
		}
		if e.Labelled && !strings.Contains(entry, e.Label) || !strings.Contains(entry, e.Source) {
			t.Fatalf("%q: %+v not taken from the entry", entry, e)
		}
		r, rest := policies.SourceReading(e.Source)
		if (r == policies.ReadAny) != (rest == e.Source) || !strings.HasSuffix(e.Source, rest) {
			t.Fatalf("%q: reading %v rest %q", e.Source, r, rest)
		}
	})
}

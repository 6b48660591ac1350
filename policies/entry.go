package policies

import "strings"

// Entry is one entry of a scheduler list (eval --schedulers, simulate
// --scheduler, pressure): a scheduler spec on its own, or LABEL=SOURCE,
// where SOURCE is a scheduler spec run under LABEL, a learner run or its
// best.json, or a formula over d, q, u, g. Which of these SOURCE is, the
// caller decides (it needs the file system and the formula reader);
// SourceReading says which reading a prefix forces.
type Entry struct {
	Labelled bool   // the entry has an "=": LABEL=SOURCE
	Label    string // LABEL, without surrounding space ("" when not Labelled)
	Source   string // SOURCE without surrounding space, or the whole entry when not Labelled
}

// ParseEntry splits entry at its first "=" into LABEL and SOURCE, each
// without surrounding space. A Labelled entry's Label may be empty: the
// caller refuses it with its own message.
func ParseEntry(entry string) Entry {
	label, source, ok := strings.Cut(entry, "=")
	if !ok {
		return Entry{Source: strings.TrimSpace(entry)}
	}
	return Entry{Labelled: true, Label: strings.TrimSpace(label), Source: strings.TrimSpace(source)}
}

// LabelledWord reports whether entry is LABEL=SOURCE with a plain word as
// LABEL: "hydra:budget=10" and "mct+formula+bestfit=…" are scheduler
// specs (with a parameter, or composed), not labels.
func LabelledWord(entry string) bool {
	label, _, ok := strings.Cut(entry, "=")
	return ok && !strings.ContainsAny(label, ":+")
}

// Reading is the kind of SOURCE a LABEL=SOURCE entry's prefix forces.
type Reading int

const (
	// ReadAny: no prefix; SOURCE is whichever of a scheduler spec, a run
	// or a formula it is (a bare name that is two of them is refused).
	ReadAny Reading = iota
	// ReadScheduler: "scheduler:", a whole scheduler spec.
	ReadScheduler
	// ReadRun: "run:", a learner run directory or its best.json.
	ReadRun
	// ReadFormula: "formula:", a formula over d, q, u, g.
	ReadFormula
)

// SourceReading is the reading source's prefix forces and source without
// that prefix; ReadAny and source itself when it has none.
func SourceReading(source string) (Reading, string) {
	prefixes := [...]struct {
		prefix  string
		reading Reading
	}{{"scheduler:", ReadScheduler}, {"run:", ReadRun}, {"formula:", ReadFormula}}
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(source, p.prefix); ok {
			return p.reading, rest
		}
	}
	return ReadAny, source
}

package rule

// WithoutMBound is r with the bound of m's bound off (the reference path) and
// WithMStats r counting the what-ifs' asked and skipped what-ifs into asked
// and skipped (tests only).
func WithoutMBound(r Rule) Rule { r.noBound = true; return r }

// MStats are the what-ifs' counts.
type MStats = mStats

// WithMStats is r counting into st.
func WithMStats(r Rule, st *MStats) Rule { r.stats = st; return r }

// Asked and Skipped read the counts.
func (st *mStats) Asked() int64   { return st.asked.Load() }
func (st *mStats) Skipped() int64 { return st.skipped.Load() }

// NonDecreasingInM exposes the monotonicity analysis (mbound.go).
var NonDecreasingInM = nonDecreasingInM

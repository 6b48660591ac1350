package rule

// WithoutMBound is r with decideM's bound off (the reference path) and
// WithMStats r counting decideM's asked and skipped what-ifs into asked
// and skipped (tests only).
func WithoutMBound(r Rule) Rule { r.noBound = true; return r }

// MStats are decideM's counts.
type MStats = mStats

// WithMStats is r counting into st.
func WithMStats(r Rule, st *MStats) Rule { r.stats = st; return r }

// Asked and Skipped read the counts.
func (st *mStats) Asked() int64   { return st.asked.Load() }
func (st *mStats) Skipped() int64 { return st.skipped.Load() }

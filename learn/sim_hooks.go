package learn

// The simulator run's Screen and Archives (observe.go). They keep state
// keyed on the loop's own members (trees, hashes, objective vectors), so
// they read the Members the loop hands them as its slice (own); an
// operator written outside this package uses the index views instead.

// own is the loop's slice behind m; the loop hands its operators
// scoredMembers only.
func own(m Members) []scored { return []scored(m.(scoredMembers)) }

// surrogateScreen is the surrogate's pre-selection (gp.surrogate): every
// offspring when the run has none.
type surrogateScreen struct{ r *runner }

func (s surrogateScreen) Screen(_ Population, offspring Members) []int {
	pool := own(offspring)
	if s.r.sur == nil {
		keep := make([]int, len(pool))
		for i := range keep {
			keep[i] = i
		}
		return keep
	}
	return s.r.screenIndex(pool)
}

// surrogateTraining adds each generation's evaluated members to the
// surrogate's archive (recordSurrogate); nothing without a surrogate.
type surrogateTraining struct{ r *runner }

func (a surrogateTraining) Evaluated(_ int, all Members, parents int) {
	a.r.recordSurrogate(own(all), parents)
}

func (surrogateTraining) Survived(int, Members, Members) error { return nil }

// frontArchive is the multi-objective run's archive of non-dominated
// members (r.front, gp.selection: nsga2); nothing otherwise.
type frontArchive struct{ r *runner }

func (frontArchive) Evaluated(int, Members, int) {}

func (a frontArchive) Survived(g int, all, survivors Members) error {
	return a.r.survived(g, own(all), own(survivors))
}

package learn

import "slices"

// hallByValidation is the hall of fame ranked on one common set, the
// validation set (HallEntry.Validation, set by finish): the entries' own
// train scores were measured on the subsets of different generations and
// do not compare. Ties go to the smaller individual, then the lower hash,
// as finish's choice does. hall is not modified.
func hallByValidation(hall []HallEntry) []HallEntry {
	out := slices.Clone(hall)
	slices.SortStableFunc(out, func(a, b HallEntry) int {
		if c := compareFloat(a.Validation, b.Validation); c != 0 {
			return c
		}
		sa, sb := individual{a.Routing.Tree, a.Tree}.size(), individual{b.Routing.Tree, b.Tree}.size()
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		case a.hash < b.hash:
			return -1
		case a.hash > b.hash:
			return 1
		}
		return 0
	})
	return out
}

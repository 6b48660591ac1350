package policies

import "slices"

// Specs lists every scheduler spec the catalogue makes without a formula:
// the names (Names) and every ALLOCATOR+RANKING+PLACER combination of the
// registered parts, sorted. Shell completion offers them as the values of
// --scheduler and --schedulers.
func (c Catalogue) Specs() []string {
	out := c.Names()
	for _, a := range c.Allocators {
		for _, r := range append(slices.Clone(c.Rankings), "formula") {
			for _, p := range c.Placers {
				out = append(out, a+"+"+r+"+"+p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

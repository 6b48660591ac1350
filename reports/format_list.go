package reports

import (
	"fmt"
	"slices"
	"strings"
)

// ParseFormats reads a comma-separated list of figure formats (any case,
// spaces around the commas allowed); each must be one of Formats().
func ParseFormats(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if !slices.Contains(Formats(), f) {
			return nil, fmt.Errorf("format %q: want a comma-separated list of %s", f, strings.Join(Formats(), ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

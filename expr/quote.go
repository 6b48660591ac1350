package expr

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Bounds of a formula quoted in an error message.
const (
	// MaxQuoted is the longest formula (in characters) Quote gives whole.
	MaxQuoted = 120
	// quoteRadius is how many characters Quote keeps either side of the
	// error's column in a longer formula.
	quoteRadius = 30
)

// Quote renders src for an error message about it: the quoted formula if
// it has at most MaxQuoted characters, otherwise a quoted excerpt of
// about 60 characters around the column of err (a *ParseError; the start
// of src for any other error), with "…" where it was cut, and the
// formula's length and that column. A 200 KB formula nested too deep thus
// gives a one-line error instead of the whole formula.
func Quote(src string, err error) string {
	n := utf8.RuneCountInString(src)
	if n <= MaxQuoted {
		return strconv.Quote(src)
	}
	runes := []rune(src)
	col := 1
	var pe *ParseError
	if errors.As(err, &pe) && pe.Col >= 1 && pe.Col <= n+1 {
		col = pe.Col
	}
	lo := max(0, col-1-quoteRadius)
	hi := min(n, lo+2*quoteRadius)
	lo = max(0, hi-2*quoteRadius)
	excerpt := string(runes[lo:hi])
	if lo > 0 {
		excerpt = "…" + excerpt
	}
	if hi < n {
		excerpt += "…"
	}
	return fmt.Sprintf("%s (%d characters; excerpt around column %d)", strconv.Quote(excerpt), n, col)
}

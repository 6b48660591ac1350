package yamlerr

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
)

// parserProblems are the messages of yaml/v3's parser (parserc.go), which
// it reports at a 0-based line. Scanner messages are all different.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// Error is a YAML syntax error with its corrected line. Unwrap gives the
// decoder's original error.
type Error struct {
	Line int    // 1-based
	Msg  string // the problem, without "yaml: line N: "
	err  error
}

func (e *Error) Error() string { return "yaml: line " + strconv.Itoa(e.Line) + ": " + e.Msg }
func (e *Error) Unwrap() error { return e.err }

// Fix returns err, an error of decoding src, with the line of a parser
// error corrected (as an *Error); any other error, and nil, comes back
// unchanged. A parser error's line is where the construct it could not
// finish began (the "[" of an unclosed flow sequence) or, for a construct
// begun on line 1, where the parser found the problem; a problem found at
// the end of the input is on src's last line.
func Fix(err error, src []byte) error {
	if err == nil {
		return nil
	}
	// Only the decoder's own syntax errors, not ones already fixed or
	// wrapped by someone else.
	var done *Error
	if errors.As(err, &done) {
		return err
	}
	msg, ok := strings.CutPrefix(err.Error(), "yaml: ")
	if !ok {
		return err
	}
	line := 0 // the decoder omits the line when its 0-based line is 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		num, problem, ok := strings.Cut(rest, ": ")
		n, convErr := strconv.Atoi(num)
		if !ok || convErr != nil {
			return err
		}
		line, msg = n, problem
	}
	for _, p := range parserProblems {
		if msg == p {
			return &Error{Line: min(line+1, lines(src)), Msg: msg, err: err}
		}
	}
	return err
}

// lines is the number of lines of src (at least 1); a final line break
// ends the last line rather than starting another.
func lines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return max(n, 1)
}

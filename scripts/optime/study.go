package main

import (
	"fmt"
	"io"

	"github.com/evogp/evogp/simcore/rule"
)

// reuseStudy counts, over the operations of simulations run one after the
// other, how much of a scope-all rule's work at an operation repeats the
// previous operation's (issue 39: what could reuse across operations
// save). It reads rule.WithDecisionLog's records; a decision at operation
// k is
//   - kept: its job was decided at operation k−1 too, to the same cluster;
//   - in the common prefix: the decisions before it and it (job and
//     cluster, in decision order) equal operation k−1's, so the jobs ahead
//     of it on every cluster are the same jobs;
//   - in the common prefix with the same fixed state: also every
//     cluster's Jn jobs (job and absolute finish) equal operation k−1's.
//
// Only decisions in that last class have the inputs of operation k−1 apart
// from the time; every what-if answer and every terminal relative to now
// (m, x, a, q of a waiting job) still differs, so the class is an upper
// bound of what reuse across operations could skip, not a lever.
type reuseStudy struct {
	op            int // the operation being collected, −1 before the first
	now           int64
	fixed         uint64
	cur, prev     []rule.Decision
	prevFixed     uint64
	prevOK        bool // prev holds the previous operation of the same simulation
	ops, decided  int
	kept, prefix  int
	prefixFixed   int
	fixedSameOps  int
	wholePrefixes int
	// flips: operations whose common prefix (same fixed state) ends at a
	// job decided at operation k−1 in the same position, with the same
	// jobs ahead, to another cluster — a decision whose inputs differ from
	// operation k−1's only by the time (and the jobs' remaining times).
	flips int
}

func newReuseStudy() *reuseStudy { return &reuseStudy{op: -1} }

// log is the rule.WithDecisionLog callback.
func (s *reuseStudy) log(d rule.Decision) {
	if d.Op != s.op || d.Now != s.now {
		s.flush(d.Op == s.op+1)
		s.op, s.now, s.fixed = d.Op, d.Now, d.Fixed
	}
	s.cur = append(s.cur, d)
}

// flush ends the collected operation; next tells whether the next one
// directly follows it in the same simulation (operation index one more;
// an operation without decisions, or a new simulation, breaks the chain,
// and the next operation is then compared with none).
func (s *reuseStudy) flush(next bool) {
	if s.op < 0 {
		return
	}
	s.ops++
	s.decided += len(s.cur)
	if s.prevOK {
		last := make(map[int]int, len(s.prev))
		for _, d := range s.prev {
			last[d.Job] = d.Cluster
		}
		for _, d := range s.cur {
			if c, ok := last[d.Job]; ok && c == d.Cluster {
				s.kept++
			}
		}
		n := 0
		for n < len(s.cur) && n < len(s.prev) && s.cur[n].Job == s.prev[n].Job && s.cur[n].Cluster == s.prev[n].Cluster {
			n++
		}
		s.prefix += n
		if s.fixed == s.prevFixed {
			s.fixedSameOps++
			s.prefixFixed += n
			if n < len(s.cur) && n < len(s.prev) && s.cur[n].Job == s.prev[n].Job {
				s.flips++
			}
		}
		if n == len(s.cur) && n == len(s.prev) {
			s.wholePrefixes++
		}
	}
	s.prev, s.cur = append(s.prev[:0], s.cur...), s.cur[:0]
	s.prevFixed, s.prevOK = s.fixed, next
}

// report ends the study and prints its shares.
func (s *reuseStudy) report(w io.Writer) {
	s.flush(false)
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(1, b)) }
	fmt.Fprintf(w, "study: operations with decisions=%d decisions=%d (%.1f per operation) kept=%.1f %% common prefix=%.1f %% common prefix and fixed state=%.1f %% operations with the same fixed state=%.1f %% operations repeating the previous one whole=%.1f %% flips after a common prefix=%d (%.2f per 1000 operations)\n",
		s.ops, s.decided, float64(s.decided)/float64(max(1, s.ops)), pct(s.kept, s.decided), pct(s.prefix, s.decided),
		pct(s.prefixFixed, s.decided), pct(s.fixedSameOps, s.ops), pct(s.wholePrefixes, s.ops), s.flips, 1000*float64(s.flips)/float64(max(1, s.ops)))
}

package simcore

// finishHeap is a binary min-heap of (finish time, job): the jobs of Jn,
// which run to a finish known when they start.
type finishHeap struct{ e []finishEntry }

type finishEntry struct {
	at int64
	j  int32
}

func (h *finishHeap) len() int { return len(h.e) }

// min is the earliest finish time on the heap (len > 0).
func (h *finishHeap) min() int64 { return h.e[0].at }

func (h *finishHeap) push(at int64, j int) {
	h.e = append(h.e, finishEntry{at, int32(j)})
	for i := len(h.e) - 1; i > 0; {
		up := (i - 1) / 2
		if h.e[up].at <= h.e[i].at {
			break
		}
		h.e[up], h.e[i] = h.e[i], h.e[up]
		i = up
	}
}

// pop removes an entry of the earliest finish time and returns its job.
func (h *finishHeap) pop() int {
	top := int(h.e[0].j)
	n := len(h.e) - 1
	h.e[0] = h.e[n]
	h.e = h.e[:n]
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < n && h.e[l].at < h.e[small].at {
			small = l
		}
		if r := l + 1; r < n && h.e[r].at < h.e[small].at {
			small = r
		}
		if small == i {
			break
		}
		h.e[i], h.e[small] = h.e[small], h.e[i]
		i = small
	}
	return top
}

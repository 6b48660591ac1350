package slurm

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// QueueJob is one line of the squeue output (SqueueArgs).
type QueueJob struct {
	Line      int    // 1-based line of the squeue output
	ID        int64  // the job id scontrol takes
	Partition string // a pending job submitted to several partitions lists them comma-separated
	State     string // PENDING or RUNNING
	Submit    time.Time
	Eligible  time.Time // zero: not eligible (held, dependency, begin time)
	Start     time.Time // of a running job; zero for a pending one
	// Limit is the time limit; 0 = none (UNLIMITED).
	Limit       time.Duration
	Nodes       int
	CPUs        int
	Tasks       int
	TresPerNode string // e.g. gres/gpu:2 ("" = none)
	TresPerJob  string
	Priority    int64
	QOS         string
	Reason      string
	Comment     string
}

// ParseError is a line of a command's output that does not read as the
// format asked for.
type ParseError struct {
	Command string // squeue or sinfo
	Line    int    // 1-based
	Field   string // "" for the line as a whole
	Value   string
	Why     string
}

func (e *ParseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s output line %d: %s", e.Command, e.Line, e.Why)
	}
	return fmt.Sprintf("%s output line %d: field %s = %q: %s", e.Command, e.Line, e.Field, e.Value, e.Why)
}

// splitFields splits a line printed with formatArg into n values: every
// field ends with "|", the last one may hold "|" itself.
func splitFields(cmd string, lineNo int, line string, n int) ([]string, error) {
	if !strings.HasSuffix(line, "|") {
		return nil, &ParseError{Command: cmd, Line: lineNo, Why: fmt.Sprintf("does not end with the field separator |: cut short, or not the format evogp asked for (%d fields)", n)}
	}
	vals := strings.SplitN(strings.TrimSuffix(line, "|"), "|", n)
	if len(vals) != n {
		return nil, &ParseError{Command: cmd, Line: lineNo, Why: fmt.Sprintf("%d fields, want %d", len(vals), n)}
	}
	return vals, nil
}

// lines are the non-empty lines of out with their 1-based numbers.
func lines(out string) (nums []int, ls []string) {
	for i, l := range strings.Split(out, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		nums, ls = append(nums, i+1), append(ls, l)
	}
	return nums, ls
}

// slurmNull reports whether a value is one of Slurm's "no value" words.
func slurmNull(v string) bool {
	switch v {
	case "", "N/A", "(null)", "None", "NONE", "n/a":
		return true
	}
	return false
}

// ParseSqueue reads squeue's output (SqueueArgs) with Slurm's times in
// zone. Every line must be complete and every field valid; the first one
// that is not is the error.
func ParseSqueue(out string, zone *time.Location) ([]QueueJob, error) {
	nums, ls := lines(out)
	jobs := make([]QueueJob, 0, len(ls))
	seen := map[int64]int{}
	for k, line := range ls {
		n := nums[k]
		v, err := splitFields("squeue", n, line, len(squeueFields))
		if err != nil {
			return nil, err
		}
		bad := func(i int, why string) error {
			return &ParseError{Command: "squeue", Line: n, Field: squeueFields[i], Value: v[i], Why: why}
		}
		j := QueueJob{Line: n, Partition: v[1], State: v[2], TresPerNode: nullEmpty(v[10]), TresPerJob: nullEmpty(v[11]),
			QOS: nullEmpty(v[13]), Reason: nullEmpty(v[14]), Comment: nullEmpty(v[15])}
		if j.ID, err = strconv.ParseInt(v[0], 10, 64); err != nil || j.ID <= 0 {
			return nil, bad(0, "not a job id")
		}
		if prev, dup := seen[j.ID]; dup {
			return nil, bad(0, fmt.Sprintf("job listed twice (also line %d)", prev))
		}
		seen[j.ID] = n
		if j.Partition == "" {
			return nil, bad(1, "empty partition")
		}
		if j.State != "PENDING" && j.State != "RUNNING" {
			return nil, bad(2, "want PENDING or RUNNING (squeue was asked for those states only)")
		}
		if j.Submit, err = parseTime(v[3], zone); err != nil || j.Submit.IsZero() {
			return nil, bad(3, "not a time YYYY-MM-DDTHH:MM:SS")
		}
		if j.Eligible, err = parseTime(v[4], zone); err != nil {
			return nil, bad(4, "not a time YYYY-MM-DDTHH:MM:SS or N/A")
		}
		if j.State == "RUNNING" {
			if j.Start, err = parseTime(v[5], zone); err != nil || j.Start.IsZero() {
				return nil, bad(5, "a running job needs its start time YYYY-MM-DDTHH:MM:SS")
			}
		}
		if j.Limit, err = ParseLimit(v[6]); err != nil {
			return nil, bad(6, err.Error())
		}
		for i, dst := range map[int]*int{7: &j.Nodes, 8: &j.CPUs, 9: &j.Tasks} {
			if *dst, err = strconv.Atoi(v[i]); err != nil || *dst < 1 {
				return nil, bad(i, "not a count ≥ 1")
			}
		}
		if j.Priority, err = strconv.ParseInt(v[12], 10, 64); err != nil || j.Priority < 0 {
			return nil, bad(12, "not a priority ≥ 0")
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

func nullEmpty(v string) string {
	if slurmNull(v) {
		return ""
	}
	return v
}

// parseTime reads Slurm's YYYY-MM-DDTHH:MM:SS in zone; N/A, Unknown and
// None are the zero time.
func parseTime(v string, zone *time.Location) (time.Time, error) {
	if slurmNull(v) || v == "Unknown" {
		return time.Time{}, nil
	}
	return time.ParseInLocation("2006-01-02T15:04:05", v, zone)
}

// ParseLimit reads a Slurm time limit: [days-]hours:minutes:seconds,
// minutes:seconds or minutes; UNLIMITED and INFINITE are 0 (none).
func ParseLimit(v string) (time.Duration, error) {
	switch v {
	case "UNLIMITED", "INFINITE", "Partition_Limit", "NOT_SET":
		return 0, nil
	}
	days := int64(0)
	rest := v
	if d, r, ok := strings.Cut(v, "-"); ok {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("not a time limit [days-]hours:minutes:seconds")
		}
		days, rest = n, r
	}
	parts := strings.Split(rest, ":")
	nums := make([]int64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 || len(p) == 0 || len(p) > 9 {
			return 0, fmt.Errorf("not a time limit [days-]hours:minutes:seconds")
		}
		nums[i] = n
	}
	var secs int64
	switch {
	case len(parts) == 3:
		secs = nums[0]*3600 + nums[1]*60 + nums[2]
	case len(parts) == 2 && days > 0: // days-hours:minutes
		secs = nums[0]*3600 + nums[1]*60
	case len(parts) == 2:
		secs = nums[0]*60 + nums[1]
	case len(parts) == 1 && days > 0: // days-hours
		secs = nums[0] * 3600
	case len(parts) == 1:
		secs = nums[0] * 60
	default:
		return 0, fmt.Errorf("not a time limit [days-]hours:minutes:seconds")
	}
	secs += days * 86400
	if secs <= 0 || days > 1e6 {
		return 0, fmt.Errorf("time limit must be > 0")
	}
	return time.Duration(secs) * time.Second, nil
}

// Node is one line of the sinfo output (SinfoArgs): a node in a
// partition.
type Node struct {
	Line      int
	Partition string
	Name      string
	CPUs      int
	Gres      string // e.g. gpu:4 or gpu:a100:4(S:0-1); "" = none
	State     string // e.g. idle, mixed, allocated, drained, down*
}

// ParseSinfo reads sinfo's output (SinfoArgs).
func ParseSinfo(out string) ([]Node, error) {
	nums, ls := lines(out)
	var nodes []Node
	for k, line := range ls {
		n := nums[k]
		v, err := splitFields("sinfo", n, line, len(sinfoFields))
		if err != nil {
			return nil, err
		}
		bad := func(i int, why string) error {
			return &ParseError{Command: "sinfo", Line: n, Field: sinfoFields[i], Value: v[i], Why: why}
		}
		nd := Node{Line: n, Partition: strings.TrimSuffix(v[0], "*"), Name: v[1], Gres: nullEmpty(v[3]), State: v[4]}
		if nd.Partition == "" {
			return nil, bad(0, "empty partition")
		}
		if nd.Name == "" {
			return nil, bad(1, "empty node name")
		}
		if nd.CPUs, err = strconv.Atoi(v[2]); err != nil || nd.CPUs < 1 {
			return nil, bad(2, "not a CPU count ≥ 1")
		}
		if nd.State == "" {
			return nil, bad(4, "empty state")
		}
		if _, err := GresGPUs(nd.Gres); err != nil {
			return nil, bad(3, err.Error())
		}
		nodes = append(nodes, nd)
	}
	return nodes, nil
}

// GresGPUs is the number of GPUs in a GRES or TRES list such as
// "gpu:4", "gpu:a100:4(S:0-1)", "gres/gpu:2", "gres:gpu:2" or
// "gpu:2,shard:4" (0 when it names none).
func GresGPUs(list string) (int, error) {
	total := 0
	for _, item := range splitTopLevel(list) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if i := strings.IndexByte(item, '('); i >= 0 {
			item = item[:i]
		}
		item = strings.TrimPrefix(strings.TrimPrefix(item, "gres/"), "gres:")
		parts := strings.Split(item, ":")
		if parts[0] != "gpu" {
			continue
		}
		count := 1
		if len(parts) > 1 {
			last := parts[len(parts)-1]
			c, err := strconv.Atoi(last)
			switch {
			case err == nil && c >= 0:
				count = c
			case len(parts) == 2: // gpu:TYPE, one GPU
			default:
				return 0, fmt.Errorf("GPU count %q is not a number", last)
			}
		}
		total += count
	}
	return total, nil
}

// splitTopLevel splits a comma-separated list outside parentheses.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

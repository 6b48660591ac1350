package slurm

import (
	"strings"
	"testing"
	"time"
)

func TestParseLimit(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"5": 5 * time.Minute, "5:30": 5*time.Minute + 30*time.Second, "1:00:00": time.Hour, "2-03:04:05": 2*24*time.Hour + 3*time.Hour + 4*time.Minute + 5*time.Second,
		"1-2": 26 * time.Hour, "1-02:30": 26*time.Hour + 30*time.Minute, "UNLIMITED": 0, "INFINITE": 0,
	} {
		got, err := ParseLimit(in)
		if err != nil || got != want {
			t.Errorf("ParseLimit(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "1:2:3:4", "-5", "1:-2", "0", "0:00:00", "1::2"} {
		if _, err := ParseLimit(bad); err == nil {
			t.Errorf("ParseLimit(%q): no error", bad)
		}
	}
}

func TestGresGPUs(t *testing.T) {
	for in, want := range map[string]int{
		"": 0, "gpu:4": 4, "gpu:a100:4(S:0-1)": 4, "gres/gpu:2": 2, "gres:gpu:2": 2, "gpu:2,shard:4": 2,
		"gres/gpu:a100:2,gres/gpu:v100:1": 3, "gpu": 1, "gpu:a100": 1, "shard:8": 0, "gpu:a100:4(S:0,1),mps:100": 4,
	} {
		got, err := GresGPUs(in)
		if err != nil || got != want {
			t.Errorf("GresGPUs(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := GresGPUs("gpu:a100:x"); err == nil {
		t.Error("gpu:a100:x: no error")
	}
}

// TestParseSqueueReadsEveryField reads a line as Slurm 22.05 prints it,
// with a separator inside the comment.
func TestParseSqueueReadsEveryField(t *testing.T) {
	line := "42|gpu|RUNNING|2026-01-01T10:00:00|2026-01-01T10:00:05|2026-01-01T11:00:00|1-00:00:00|2|16|4|gres/gpu:4|N/A|4294901757|high|None|est|mate=3600|\n"
	js, err := ParseSqueue(line, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	j := js[0]
	if j.ID != 42 || j.Partition != "gpu" || j.State != "RUNNING" || j.Limit != 24*time.Hour || j.Nodes != 2 || j.CPUs != 16 || j.Tasks != 4 ||
		j.TresPerNode != "gres/gpu:4" || j.TresPerJob != "" || j.Priority != 4294901757 || j.QOS != "high" || j.Reason != "" || j.Comment != "est|mate=3600" ||
		!j.Eligible.Equal(time.Date(2026, 1, 1, 10, 0, 5, 0, time.UTC)) || !j.Start.Equal(time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC)) {
		t.Errorf("%+v", j)
	}
	// A zone other than UTC: the times are read in it.
	js, _ = ParseSqueue(line, time.FixedZone("x", 3600))
	if js[0].Submit.UTC().Hour() != 9 {
		t.Errorf("submit in +01:00: %v", js[0].Submit.UTC())
	}
}

func TestParseErrorsNameCommandLineField(t *testing.T) {
	good := "1|gpu|PENDING|2026-01-01T10:00:00|2026-01-01T10:00:00|N/A|1:00:00|1|1|1|gres/gpu:1|N/A|5|normal|None|(null)|"
	for _, c := range []struct{ out, want string }{
		{good + "\n" + good, "squeue output line 2: field JobID = \"1\": job listed twice (also line 1)"},
		{"\n" + strings.Replace(good, "|1|1|1|", "|0|1|1|", 1), "squeue output line 2: field NumNodes = \"0\": not a count ≥ 1"},
		{strings.TrimSuffix(good, "|"), "squeue output line 1: does not end with the field separator"},
		{"1|gpu|PENDING|", "squeue output line 1: 3 fields, want 16"},
		{strings.Replace(good, "|PENDING|", "||", 1), "field State = \"\""},
		{strings.Replace(good, "|gpu|", "||", 1), "field Partition"},
	} {
		_, err := ParseSqueue(c.out, time.UTC)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.out, err, c.want)
		}
	}
	for _, c := range []struct{ out, want string }{
		{"gpu|n1|x|gpu:4|idle|", "sinfo output line 1: field CPUs = \"x\""},
		{"gpu|n1|8|gpu:a:b|idle|", "field Gres"},
		{"gpu|n1|8|gpu:4|", "sinfo output line 1: 4 fields, want 5"},
		{"gpu||8|gpu:4|idle|", "field NodeList"},
		{"gpu|n1|8|gpu:4||", "field StateLong"},
	} {
		_, err := ParseSinfo(c.out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.out, err, c.want)
		}
	}
}

func TestSnapshotSaveLoadRoundTrip(t *testing.T) {
	s := handQueue()
	s.Meta.UTCOffset = 7200
	dir := t.TempDir()
	if err := s.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Squeue != s.Squeue || got.Sinfo != s.Sinfo || got.Meta.Now != s.Meta.Now || got.Meta.UTCOffset != 7200 {
		t.Errorf("round trip: %+v", got.Meta)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a deploy snapshot") {
		t.Errorf("empty dir: %v", err)
	}
}

// FuzzParseSqueue: any output is read or refused with a ParseError, never
// a panic; what is read is a valid job.
func FuzzParseSqueue(f *testing.F) {
	f.Add(handQueue().Squeue)
	f.Add("1|gpu|PENDING|2026-01-01T10:00:00|N/A|N/A|UNLIMITED|1|1|1|N/A|gres/gpu:2|0|(null)|JobHeldUser|a|b|\n")
	f.Add("1|gpu|RUNNING|")
	f.Fuzz(func(t *testing.T, out string) {
		js, err := ParseSqueue(out, time.UTC)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T %v is not a ParseError", err, err)
			}
			return
		}
		for _, j := range js {
			if j.ID <= 0 || j.Partition == "" || (j.State != "PENDING" && j.State != "RUNNING") || j.Nodes < 1 || j.CPUs < 1 || j.Tasks < 1 ||
				j.Priority < 0 || j.Limit < 0 || j.Submit.IsZero() || (j.State == "RUNNING" && j.Start.IsZero()) {
				t.Fatalf("read an invalid job %+v", j)
			}
		}
	})
}

// FuzzParseSinfo: as FuzzParseSqueue for sinfo's output.
func FuzzParseSinfo(f *testing.F) {
	f.Add(handQueue().Sinfo)
	f.Add("gpu*|n1|8|gpu:a100:4(S:0-1),shard:8|mixed|\n")
	f.Fuzz(func(t *testing.T, out string) {
		ns, err := ParseSinfo(out)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T %v is not a ParseError", err, err)
			}
			return
		}
		for _, n := range ns {
			if n.Partition == "" || n.Name == "" || n.CPUs < 1 || n.State == "" {
				t.Fatalf("read an invalid node %+v", n)
			}
			if g, err := GresGPUs(n.Gres); err != nil || g < 0 {
				t.Fatalf("node %+v: GPUs %d %v", n, g, err)
			}
		}
	})
}

package experiment

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A test binary carries no VCS stamp, so inside this checkout the commit
// comes from git, and is the one git reports.
func TestProvenanceCommitFromGit(t *testing.T) {
	want, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git checkout here: %v", err)
	}
	p := NewProvenance([]string{"evogp"}, time.Now())
	if p.RevisionFrom == "build" {
		t.Skip("binary stamped with VCS information")
	}
	if p.Revision != strings.TrimSpace(string(want)) || p.RevisionFrom != "git" {
		t.Fatalf("revision %q from %q, want %q from git", p.Revision, p.RevisionFrom, want)
	}
	status, _ := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output()
	if p.Modified != (len(strings.TrimSpace(string(status))) > 0) {
		t.Errorf("modified = %v, git status %q", p.Modified, status)
	}
	// Another module's checkout (a paper's repository) is not ours.
	other := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = other
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/paper\n"), 0o644)
	if _, _, ok := gitRevision(other, mainModule()); ok {
		t.Error("the commit of another module's checkout was taken")
	}
	if rev, _, ok := gitRevision(other, "example.com/paper"); !ok || len(rev) != 40 {
		t.Errorf("own module's checkout: %q %v", rev, ok)
	}
}

func TestProvenanceMachineEndAndHashes(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := NewProvenance([]string{"evogp", "eval"}, start)
	if p.GOMAXPROCS != runtime.GOMAXPROCS(0) || p.NumCPU != runtime.NumCPU() {
		t.Errorf("GOMAXPROCS %d, CPUs %d", p.GOMAXPROCS, p.NumCPU)
	}
	if _, err := os.Stat(cpuInfoFile); err == nil && p.CPUModel == "" {
		t.Error("no CPU model although /proc/cpuinfo exists")
	}
	f := p.Finished(start.Add(90 * time.Second))
	if f.DurationSeconds != 90 || !f.End.Equal(start.Add(90*time.Second)) {
		t.Errorf("finished: end %v duration %v", f.End, f.DurationSeconds)
	}

	// Config hash: equal configs hash equal, a changed one differently.
	type cfg struct{ A, B int }
	h1, _ := p.WithConfig(cfg{1, 2})
	h2, _ := p.WithConfig(cfg{1, 2})
	h3, _ := p.WithConfig(cfg{1, 3})
	if len(h1.ConfigSHA256) != 64 || h1.ConfigSHA256 != h2.ConfigSHA256 || h1.ConfigSHA256 == h3.ConfigSHA256 {
		t.Errorf("config hashes %q %q %q", h1.ConfigSHA256, h2.ConfigSHA256, h3.ConfigSHA256)
	}

	// Dataset hash: content, names and file order matter; it is stable.
	data := t.TempDir()
	write := func(name, s string) { os.WriteFile(filepath.Join(data, name), []byte(s), 0o644) }
	write("jobs.csv", "a,b\n1,2\n")
	write("meta.json", "{}\n")
	hash := func() string {
		h, err := HashInput(data)
		if err != nil {
			t.Fatal(err)
		}
		return h.SHA256
	}
	a := hash()
	if a != hash() {
		t.Fatal("hash not stable")
	}
	write("jobs.csv", "a,b\n1,3\n")
	b := hash()
	os.Rename(filepath.Join(data, "jobs.csv"), filepath.Join(data, "jobs2.csv"))
	c := hash()
	if a == b || b == c {
		t.Errorf("hash ignores a change of content (%v) or of name (%v)", a == b, b == c)
	}
	// Hand-computed: one file "x" holding "hi" hashes "x\0002\000hi".
	one := filepath.Join(t.TempDir(), "one")
	os.Mkdir(one, 0o755)
	os.WriteFile(filepath.Join(one, "x"), []byte("hi"), 0o644)
	h, _ := HashInput(one)
	if h.SHA256 != "1312c9fed28502d916de1916d5dda00d79ab5323147ca71cd6784e40247382dc" {
		t.Errorf("hash of {x: hi} = %s", h.SHA256)
	}
	withIn, err := WithInputs(p, data, "")
	if err != nil || len(withIn.Inputs) != 1 || withIn.Inputs[0].SHA256 != c {
		t.Errorf("inputs %+v %v", withIn.Inputs, err)
	}
	if _, err := WithInputs(p, filepath.Join(data, "missing")); err == nil {
		t.Error("a missing dataset was hashed")
	}

	// Recorded: the end time is filled in.
	dir := t.TempDir()
	if err := AppendProvenance(dir, withIn); err != nil {
		t.Fatal(err)
	}
	var all []Provenance
	raw, _ := os.ReadFile(filepath.Join(dir, ProvenanceFile))
	if err := json.Unmarshal(raw, &all); err != nil || len(all) != 1 {
		t.Fatal(err)
	}
	if all[0].End.IsZero() || all[0].DurationSeconds <= 0 || all[0].Inputs[0].SHA256 != c || all[0].GOMAXPROCS == 0 {
		t.Errorf("recorded %+v", all[0])
	}
	for _, key := range []string{`"end"`, `"duration_seconds"`, `"gomaxprocs"`, `"inputs"`, `"sha256"`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("provenance.json lacks %s", key)
		}
	}
}

func TestCPUModel(t *testing.T) {
	dir := t.TempDir()
	x86 := filepath.Join(dir, "x86")
	os.WriteFile(x86, []byte("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\nprocessor\t: 1\nmodel name\t: other\n"), 0o644)
	arm := filepath.Join(dir, "arm")
	os.WriteFile(arm, []byte("processor\t: 0\nBogoMIPS\t: 50.00\n\nHardware\t: BCM2835\nModel\t: Raspberry Pi 4\n"), 0o644)
	for path, want := range map[string]string{x86: "Intel(R) Xeon(R) CPU @ 2.20GHz", arm: "BCM2835", filepath.Join(dir, "none"): ""} {
		if got := cpuModel(path); got != want {
			t.Errorf("%s: %q, want %q", filepath.Base(path), got, want)
		}
	}
}

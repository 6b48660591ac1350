package experiment_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

// readReport returns dir's report.html.
func readReport(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, experiment.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The headline of report.html and summary.md is the same sentence; with
// three instances no exact two-sided Wilcoxon p is below 0.25, so the
// learned formula cannot differ significantly from the best baseline.
func TestReportHeadlineNamesBaselineRatioAndTest(t *testing.T) {
	dir := smallEval(t)
	html := readReport(t, dir)
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(md), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[2], "Best baseline: ") {
		t.Fatalf("summary.md does not open with the headline:\n%s", md)
	}
	head := lines[2]
	// Three instances: the headline says the test cannot be done (issue 44).
	for _, w := range []string{"mine: mean objective ", "× ", "n too small for a test (2 non-tied pairs", "better on "} {
		if !strings.Contains(head, w) {
			t.Errorf("headline lacks %q: %s", w, head)
		}
	}
	if !strings.Contains(html, htmlEscape(head)) {
		t.Errorf("report.html lacks the summary.md headline %q", head)
	}
	for _, w := range []string{"wins (fractional)", "better / tied / worse", "median ratio", "95 % CI"} {
		if !strings.Contains(html, w) {
			t.Errorf("report.html summary table lacks column %q", w)
		}
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// remoteAttr matches a src, href or xlink:href attribute, or a CSS url(),
// that points at the network.
var remoteAttr = regexp.MustCompile(`(?i)(\b(?:src|href|xlink:href|action|srcset)\s*=\s*["']?\s*|url\(\s*["']?)(https?:)?//`)

// No asset or link of the report points at the network; provenance text
// (which may quote a URL) is not an attribute, so it does not count.
func TestReportHasNoRemoteSourcesOrLinks(t *testing.T) {
	for _, dir := range []string{smallEval(t), smallLearn(t)} {
		html := readReport(t, dir)
		if m := remoteAttr.FindString(html); m != "" {
			i := strings.Index(html, m)
			t.Errorf("%s: remote reference %q near %q", dir, m, html[max(0, i-80):min(len(html), i+120)])
		}
	}
	// The check itself catches what it should.
	for _, bad := range []string{`<img src="https://x/y.png">`, `<a href='http://x'>`, `<image xlink:href="//cdn/x">`, `style="background:url(https://x)"`} {
		if !remoteAttr.MatchString(bad) {
			t.Errorf("remoteAttr misses %s", bad)
		}
	}
	if remoteAttr.MatchString(`<p>cloned from https://example.org/evogp</p><a href="#fig-x">`) {
		t.Error("remoteAttr flags text or a local anchor")
	}
}

// Every figure file of an eval and of a learn directory is in its report,
// as the anchor of its inline SVG.
func TestReportInlinesEveryFigureFile(t *testing.T) {
	for _, dir := range []string{smallEval(t), smallLearn(t)} {
		html := readReport(t, dir)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			ext := filepath.Ext(e.Name())
			if ext != ".svg" && ext != ".png" && ext != ".pdf" {
				continue
			}
			n++
			stem := strings.TrimSuffix(e.Name(), ext)
			if !strings.Contains(html, `id="fig-`+stem+`"`) {
				t.Errorf("%s: figure file %s is not in report.html", dir, e.Name())
			}
		}
		if n == 0 {
			t.Errorf("%s: no figure file to check", dir)
		}
	}
}

// A directory that no evogp command wrote gets a clear error and no
// report.html; a dataset directory is named as such.
func TestReportOnNonOutputDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := experiment.ReadTables(dir)
	if err == nil || !strings.Contains(err.Error(), "no result table") {
		t.Fatalf("ReadTables: %v", err)
	}
	err = experiment.WriteReport(dir, experiment.ReportOptions{})
	if err == nil || !strings.Contains(err.Error(), "not an evogp output directory") {
		t.Fatalf("WriteReport: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("files left behind: %v", entries)
	}
}

// failingWriter passes n bytes through and then fails, like a full disk.
type failingWriter struct {
	w io.Writer
	n int
}

var errDiskFull = errors.New("injected: disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errDiskFull
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// An interrupted rewrite of report.html leaves the earlier one intact and
// no temporary file.
func TestReportInterruptedWriteKeepsOldReport(t *testing.T) {
	dir := smallEval(t)
	old := readReport(t, dir)
	err := experiment.WriteReportThrough(dir, experiment.ReportOptions{Warnings: []string{"a new warning"}},
		func(w io.Writer) io.Writer { return &failingWriter{w: w, n: 1000} })
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	if now := readReport(t, dir); now != old {
		t.Fatal("report.html changed after a failed write")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	// The same write without the failure does change it.
	if err := experiment.WriteReport(dir, experiment.ReportOptions{Warnings: []string{"a new warning"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readReport(t, dir), "a new warning") {
		t.Fatal("the successful rewrite lacks its warning")
	}
}

// evogp report on an estimate --plot directory (figures only, no table)
// builds a report of its figures; it used to fail with "no result table".
func TestReportOnEstimatePlotDirectory(t *testing.T) {
	var series []*estimate.Series
	var files []string
	for k, name := range []string{"run1/a.csv", "run2/b.csv"} {
		s := &estimate.Series{Name: name}
		for i := range 40 {
			s.Times = append(s.Times, 1+float64((i*7+k)%5)/10+float64(max(0, 8-i)))
		}
		series, files = append(series, s), append(files, name)
	}
	ev, err := estimate.Evaluate(t.Context(), series, files, estimate.EvaluateOptions{Options: estimate.Options{Gamma: 0.1, Prefix: 12, Head: 4, SampleIters: 4, K: 2, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := experiment.WriteEstimatePlots(dir, "", ev.Rows, io.Discard); err != nil {
		t.Fatal(err)
	}
	// What evogp report DIR does.
	tables, err := experiment.ReadTables(dir)
	if err != nil {
		t.Fatalf("ReadTables on an estimate directory: %v", err)
	}
	files2, err := tables.Render(experiment.FigureOptions{Formats: []string{"svg"}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tables.Report(dir, files2, experiment.FigureOptions{}, experiment.ReportOptions{}, experiment.ReportEnv())
	if err != nil {
		t.Fatal(err)
	}
	html := string(rep.Data)
	for _, w := range []string{`id="fig-estimate_error_cdf"`, `id="fig-estimate_stability_`} {
		if !strings.Contains(html, w) {
			t.Errorf("estimate report lacks %s", w)
		}
	}
}

// --report-instances N: beyond N instances only the instance the summary
// figures draw keeps its figures; every instance keeps its section.
func TestReportInstancesLimit(t *testing.T) {
	dir := smallEval(t) // three instances
	tables, err := experiment.ReadTables(dir)
	if err != nil {
		t.Fatal(err)
	}
	count := func(o experiment.ReportOptions) (breakdowns, leftOut, sections int) {
		rep, err := tables.Report(dir, nil, experiment.FigureOptions{}, o, experiment.ReportEnv())
		if err != nil {
			t.Fatal(err)
		}
		html := string(rep.Data)
		if collapsed := strings.Contains(html, `<section><details id="instances">`); collapsed != (o.Instances > 0 && o.Instances < 3) {
			t.Errorf("limit %d: instances section collapsed = %v", o.Instances, collapsed)
		}
		return len(regexp.MustCompile(`<figure id="fig-breakdown[^"]*inst-`).FindAllString(html, -1)), strings.Count(html, "Figures of this instance are left out"),
			strings.Count(html, `<details id="instance-`)
	}
	if b, l, s := count(experiment.ReportOptions{}); b != 3 || l != 0 || s != 3 {
		t.Errorf("default limit: %d breakdown figures, %d left out, %d sections; want 3, 0, 3", b, l, s)
	}
	if b, l, s := count(experiment.ReportOptions{Instances: 2}); b != 1 || l != 3-1 || s != 3 {
		t.Errorf("limit 2 of 3: %d breakdown figures, %d left out, %d sections; want 1, 2, 3", b, l, s)
	}
}

// eval and learn record the hash of their resolved config, eval that of
// its dataset too, and the end of the run; the report shows them.
func TestOutputProvenanceHashes(t *testing.T) {
	read := func(dir string) []experiment.Provenance {
		var all []experiment.Provenance
		b, err := os.ReadFile(filepath.Join(dir, experiment.ProvenanceFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &all); err != nil || len(all) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		return all
	}
	eval := smallEval(t)
	p := read(eval)[0]
	data, _ := filepath.Abs(filepath.Join(filepath.Dir(eval), "data"))
	want, err := experiment.HashInput(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ConfigSHA256) != 64 || len(p.Inputs) != 1 || p.Inputs[0] != want || p.End.Before(p.Start) || p.GOMAXPROCS == 0 {
		t.Errorf("eval provenance %+v, want dataset %+v", p, want)
	}
	if html := readReport(t, eval); !strings.Contains(html, p.ConfigSHA256) || !strings.Contains(html, want.SHA256) {
		t.Error("report.html lacks the config or dataset hash")
	}
	if p := read(smallLearn(t))[0]; len(p.ConfigSHA256) != 64 || p.End.IsZero() {
		t.Errorf("learn provenance %+v", p)
	}
}

// eval warns when a learned formula is scored under another objective
// than the one its run learned it under, in its result and in
// report.html, and not when the objectives agree.
func TestEvalWarnsOnObjectiveMismatch(t *testing.T) {
	run := smallLearn(t)
	var best struct {
		Objective string `json:"objective"`
	}
	raw, err := os.ReadFile(filepath.Join(run, "best.json"))
	if err != nil || json.Unmarshal(raw, &best) != nil || best.Objective == "" {
		t.Fatalf("best.json objective: %v %q", err, best.Objective)
	}
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	if err := datasets.Write(data, &datasets.Dataset{Instances: smallInstances(2)}, datasets.FormatCSV); err != nil {
		t.Fatal(err)
	}
	ps, err := experiment.ParsePolicies("tiresias,gp="+run, false, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	other := configs.Objective{Kind: "single", Omega: 0.25, Weights: cfg.Objective.Weights}
	if cfg.Objective.Kind == "single" {
		other = configs.Objective{Kind: "multi", Weights: [3]float64{1, 2, 3}}
	}
	for _, c := range []struct {
		name string
		obj  configs.Objective
		warn bool
	}{{"same", cfg.Objective, false}, {"other", other, true}} {
		out := filepath.Join(tmp, c.name)
		var log strings.Builder
		res, err := experiment.Eval(context.Background(), experiment.EvalSettings{Dataset: data, Policies: ps,
			Sim: experiment.SimSettings{Sim: cfg.Sim, Objective: c.obj}, Out: out,
			Figures: experiment.FigureOptions{Formats: []string{"svg"}, Reference: "tiresias"}, Progress: progress.Options{Quiet: true, Out: &log},
			Provenance: experiment.NewProvenance([]string{"evogp", "eval"}, time.Unix(0, 0))})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Warnings) > 0; got != c.warn {
			t.Fatalf("%s objective: warnings %q", c.name, res.Warnings)
		}
		if !c.warn {
			continue
		}
		w := res.Warnings[0]
		if !strings.Contains(w, "gp was learned under the objective "+best.Objective) || !strings.Contains(log.String(), "warning: "+w) {
			t.Errorf("warning %q / log %q", w, log.String())
		}
		if !strings.Contains(readReport(t, out), htmlEscape(w)) {
			t.Error("report.html lacks the warning")
		}
	}
}

// The learn report's headline also gives the test comparison as the eval
// headline does: ratio, effect size, counts and the Wilcoxon p with n, or
// with three test instances "n too small for a test".
func TestLearnReportTestHeadline(t *testing.T) {
	html := readReport(t, smallLearn(t))
	i := strings.Index(html, "Held-out test (")
	if i < 0 {
		t.Fatal("learn report has no test headline")
	}
	line := html[i:min(len(html), i+600)]
	for _, w := range []string{"Best baseline: ", "chosen by the run", "learned: mean objective ", "better on ", "n too small for a test ("} {
		if !strings.Contains(line, w) {
			t.Errorf("test headline lacks %q: %s", w, line)
		}
	}
}

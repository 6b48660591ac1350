package experiment_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// chromiumPath finds a Chromium to drive: $EVOGP_CHROMIUM, else the first
// of Debian's chromium and its usual other names on $PATH. Without one the
// test skips, except under CI=true, where a missing browser is a failure
// (.ci/run installs Debian's chromium).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("EVOGP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium found (set EVOGP_CHROMIUM or install Debian's chromium: apt-get install -y chromium)"
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true: " + msg)
	}
	t.Skip(msg)
	return ""
}

// smallInstances are n instances of one 8-GPU cluster with 14 jobs each,
// enough contention for queues and different schedules.
func smallInstances(n int) []simcore.Instance {
	var out []simcore.Instance
	for i := range n {
		inst := simcore.Instance{Name: fmt.Sprintf("inst-%d", i), Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 4}}}
		for j := range 14 {
			g := 1 << ((i + j) % 3)
			inst.Jobs = append(inst.Jobs, simcore.Job{ID: int64(j), Arrival: int64(j * 300 * (i + 1)),
				Duration: int64(600 + 900*((j*7+i)%5)), Workers: 1, GPUs: g, Priority: 1 + j%3})
		}
		out = append(out, inst)
	}
	return out
}

// smallEval writes the eval directory of four schedulers on three
// instances and returns its path.
func smallEval(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	if err := datasets.Write(data, &datasets.Dataset{Instances: smallInstances(3)}, datasets.FormatCSV); err != nil {
		t.Fatal(err)
	}
	ps, err := experiment.ParsePolicies("spark,liquid,tiresias,mine=g*d+q", false, false)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "eval")
	_, err = experiment.Eval(context.Background(), experiment.EvalSettings{
		Dataset: data, Policies: ps, Sim: experiment.DefaultSimSettings(),
		Figures: experiment.FigureOptions{Formats: []string{"png", "svg"}, Reference: "tiresias"},
		Out:     out, Progress: progress.Options{Quiet: true},
		Provenance: experiment.NewProvenance([]string{"evogp", "eval", "--dataset", data, "--out", out}, time.Unix(0, 0)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// smallLearn writes a learning run on the smoke config.
func smallLearn(t *testing.T) string {
	t.Helper()
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, _, err := experiment.Learn(context.Background(), experiment.LearnSettings{Config: cfg, Out: out,
		Progress: progress.Options{Quiet: true}, Provenance: experiment.NewProvenance([]string{"evogp", "learn", "--config", "smoke"}, time.Unix(0, 0))}); err != nil {
		t.Fatal(err)
	}
	return out
}

// pageEvents records what a page asked the network for and wrote to the
// console.
type pageEvents struct {
	mu       sync.Mutex
	requests []string
	console  []string
}

func (p *pageEvents) listen(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.requests = append(p.requests, e.Request.URL)
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, a.Description+string(a.Value))
			}
			p.console = append(p.console, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(parts, " ")))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		p.console = append(p.console, fmt.Sprintf("exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, msg))
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			p.console = append(p.console, "log error: "+e.Entry.Text+" "+e.Entry.URL)
		}
	}
}

// browse opens dir/report.html in headless Chromium and returns the
// browser context and the page's events.
func browse(t *testing.T, dir string) (context.Context, *pageEvents) {
	t.Helper()
	exe := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ev := &pageEvents{}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(ev.listen))
	t.Cleanup(cancel)
	abs, err := filepath.Abs(filepath.Join(dir, experiment.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+abs), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		for _, u := range ev.requests {
			if u != "file://"+abs && !strings.HasPrefix(u, "file://"+abs+"#") {
				t.Errorf("the report requested %s", u)
			}
		}
		for _, c := range ev.console {
			t.Errorf("console: %s", c)
		}
	})
	return ctx, ev
}

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// checkFiguresRender opens every <details> and checks that every inline
// SVG has a non-zero bounding box, and that the page's screenshot is not
// blank.
func checkFiguresRender(t *testing.T, ctx context.Context, minSVG int) {
	t.Helper()
	sizes := run(t, ctx, chromedp.Evaluate[[][2]float64](`(function(){
		document.querySelectorAll("details").forEach(function(d){d.open=true;});
		return Array.from(document.querySelectorAll("svg")).map(function(s){var r=s.getBoundingClientRect();return [r.width,r.height];});
	})()`))
	if len(sizes) < minSVG {
		t.Fatalf("%d SVG figures, want ≥ %d", len(sizes), minSVG)
	}
	for i, s := range sizes {
		if !(s[0] > 50 && s[1] > 50) {
			t.Errorf("svg %d renders %v × %v px", i, s[0], s[1])
		}
	}
	shot := run(t, ctx, chromedp.FullScreenshot(100))
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	if len(colours) < 20 {
		t.Fatalf("screenshot %v has %d colours: blank", b.Size(), len(colours))
	}
	if dir := os.Getenv("EVOGP_REPORT_SCREENSHOTS"); dir != "" {
		name := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".png")
		if err := os.WriteFile(name, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// columnValues returns the data-v values (or texts) of column col of the
// table with id.
func columnValues(t *testing.T, ctx context.Context, id string, col int) []string {
	t.Helper()
	return run(t, ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`Array.from(document.getElementById(%q).tBodies[0].rows).map(function(r){
		var c=r.cells[%d]; return c.hasAttribute("data-v")?c.getAttribute("data-v"):c.textContent;})`, id, col)))
}

// The report of a small eval works in a real browser: no request beyond
// the file itself and no console error, every figure drawn, a click on a
// header sorts the table (and a second click reverses it), a link opens
// an instance's drill-down, copy buttons are there, and the page is not
// blank.
func TestReportInBrowserEval(t *testing.T) {
	chromiumPath(t)
	dir := smallEval(t)
	ctx, _ := browse(t, dir)

	// Sorting: column 2 (objective) ascending, then descending.
	before := columnValues(t, ctx, "summary-table", 0)
	run(t, ctx, chromedp.Click(chromedp.CSS("#summary-table thead th:nth-child(3)")))
	asc := columnValues(t, ctx, "summary-table", 2)
	if !slices.IsSortedFunc(asc, cmpNum) {
		t.Fatalf("after one click the objective column is %v", asc)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS("#summary-table thead th:nth-child(3)")))
	desc := columnValues(t, ctx, "summary-table", 2)
	if !slices.IsSortedFunc(desc, func(a, b string) int { return cmpNum(b, a) }) {
		t.Fatalf("after two clicks the objective column is %v", desc)
	}
	after := columnValues(t, ctx, "summary-table", 0)
	if slices.Equal(before, after) {
		t.Fatalf("sorting did not reorder the rows: %v", after)
	}
	aria := run(t, ctx, chromedp.Evaluate[string](`document.querySelector("#summary-table thead th:nth-child(3)").getAttribute("aria-sort")`))
	if aria != "descending" {
		t.Fatalf("aria-sort %q after two clicks", aria)
	}

	// Drill-down: the first instance link opens its <details>.
	closed := run(t, ctx, chromedp.Evaluate[bool](`document.getElementById("instance-inst-0").open`))
	if closed {
		t.Fatal("instance section open before the click")
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`#instances-table a[href="#instance-inst-0"]`)))
	open := run(t, ctx, chromedp.Evaluate[bool](`document.getElementById("instance-inst-0").open`))
	if !open {
		t.Fatal("the instance link did not open its section")
	}
	n := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#instance-inst-0 svg").length`))
	if n != 2 {
		t.Fatalf("instance section has %d figures, want its breakdown and queue density", n)
	}

	// Copy buttons: present and shown (JavaScript on); a click does not
	// fail (headless Chromium may refuse the clipboard: then the text is
	// selected instead).
	copies := run(t, ctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll("button.copy")).filter(function(b){return b.offsetParent!==null;}).length`))
	if copies < 2 {
		t.Fatalf("%d visible copy buttons, want the formula's infix and LaTeX", copies)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS("button.copy")))

	// Figures: all those of the directory plus the per-instance ones.
	checkFiguresRender(t, ctx, 5+2*3-2)
}

// The report of a small learning run: formula with copy buttons, figures
// drawn, the hall-of-fame table sorts, no request, no console error.
func TestReportInBrowserLearn(t *testing.T) {
	chromiumPath(t)
	dir := smallLearn(t)
	ctx, _ := browse(t, dir)
	copies := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#formula button.copy").length`))
	if copies != 2 {
		t.Fatalf("%d copy buttons on the formula, want 2 (infix, LaTeX)", copies)
	}
	latex := run(t, ctx, chromedp.Evaluate[string](`document.getElementById("formula-latex").textContent`))
	if latex == "" {
		t.Fatal("no LaTeX source")
	}
	run(t, ctx, chromedp.Evaluate[bool](`document.querySelectorAll("details").forEach(function(d){d.open=true;}),true`))
	run(t, ctx, chromedp.Click(chromedp.CSS("#hall-table thead th:nth-child(4)"))) // validation_score
	vals := columnValues(t, ctx, "hall-table", 3)
	if !slices.IsSortedFunc(vals, cmpNum) {
		t.Fatalf("hall of fame by validation score: %v", vals)
	}
	checkFiguresRender(t, ctx, 1)
}

// cmpNum compares decimal strings as numbers ("" and NaN last).
func cmpNum(a, b string) int {
	var x, y float64
	_, ea := fmt.Sscan(a, &x)
	_, eb := fmt.Sscan(b, &y)
	switch {
	case ea != nil && eb != nil:
		return 0
	case ea != nil:
		return 1
	case eb != nil:
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

var _ = png.Decode // register the PNG decoder for image.Decode

// Figures are never shrunk below their natural size, whatever the window:
// in a window narrower than the trade-off figure (tradeoff_sweep, 7 in
// wide) its rendered width is its natural width (the SVG's width
// attribute, pt × 4/3 px), its box scrolls sideways instead, and its
// legend text renders at ≥ 11 px (10 pt). The same holds for every figure
// of the report.
func TestReportFiguresKeepNaturalSize(t *testing.T) {
	chromiumPath(t)
	dir := smallEval(t)
	f, err := reports.TradeoffFrontPlot([]reports.OmegaPoint{
		{Omega: 0, Seeds: 2, AvgJCT: 3, MaxQT: 1, AvgJCTMin: 2.8, AvgJCTMax: 3.2, MaxQTMin: 0.9, MaxQTMax: 1.1},
		{Omega: 1, Seeds: 2, AvgJCT: 2, MaxQT: 2, AvgJCTMin: 1.9, AvgJCTMax: 2.1, MaxQTMin: 1.8, MaxQTMax: 2.2},
	}, []reports.BaselinePoint{{Name: "liquid", AvgJCT: 2.5, MaxQT: 1.5}, {Name: "tiresias", AvgJCT: 20, MaxQT: 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, reports.TradeoffFrontName+".svg"), svg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := experiment.WriteReport(dir, experiment.ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, _ := browse(t, dir)
	run(t, ctx, chromedp.EmulateViewport(560, 900))
	type fig struct {
		ID                 string
		Natural, Rendered  float64
		MinLegendPx        float64
		BoxWidth, Viewport float64
	}
	figs := run(t, ctx, chromedp.Evaluate[[]fig](`(function(){
		document.querySelectorAll("details").forEach(function(d){d.open=true;});
		return Array.from(document.querySelectorAll("figure")).map(function(f){
			var s=f.querySelector("svg"); if(!s){return null;}
			var w=s.getAttribute("width")||"", n=parseFloat(w)*(w.endsWith("pt")?4/3:1);
			var min=1e9; s.querySelectorAll("text").forEach(function(t){var h=t.getBoundingClientRect().height; if(h>0&&t.textContent.indexOf("seeds")>=0){min=Math.min(min,h);}});
			return {ID:f.id, Natural:n, Rendered:s.getBoundingClientRect().width, MinLegendPx:min, BoxWidth:f.getBoundingClientRect().width, Viewport:window.innerWidth};
		}).filter(function(x){return x;});
	})()`))
	found := false
	for _, f := range figs {
		if !(f.Natural > 0) || f.Rendered < f.Natural-1 {
			t.Errorf("%s: rendered %.0f px wide, natural %.0f px: shrunk", f.ID, f.Rendered, f.Natural)
		}
		if f.ID == "fig-"+reports.TradeoffFrontName {
			found = true
			if f.Natural <= f.Viewport {
				t.Fatalf("the window (%.0f px) is not narrower than the figure (%.0f px): the test shows nothing", f.Viewport, f.Natural)
			}
			if f.BoxWidth > f.Viewport {
				t.Errorf("the figure's box (%.0f px) is wider than the window (%.0f px): it should scroll instead", f.BoxWidth, f.Viewport)
			}
			if f.MinLegendPx < 11 {
				t.Errorf("legend text renders %.1f px high, want ≥ 11 px", f.MinLegendPx)
			}
		}
	}
	if !found {
		t.Fatalf("no trade-off figure in the report: %v", figs)
	}
}

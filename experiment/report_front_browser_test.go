package experiment_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

// smallFrontLearn writes a learning run of a front of formulas
// (gp.selection: nsga2) on the smoke config.
func smallFrontLearn(t *testing.T) string {
	t.Helper()
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	cfg.GP.Selection = "nsga2"
	cfg.GP.Objectives = []string{"cq_avg", "size"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, _, err := experiment.Learn(context.Background(), experiment.LearnSettings{Config: cfg, Out: out,
		Progress: progress.Options{Quiet: true}, Provenance: experiment.NewProvenance([]string{"evogp", "learn", "--config", "smoke", "gp.selection=nsga2", "gp.objectives=cq_avg,size"}, time.Unix(0, 0))}); err != nil {
		t.Fatal(err)
	}
	return out
}

// In the report of a front run, every point of the front figure links to
// its member's formula: each link is internal, its target exists and is
// that member's formula, and following one moves to it.
func TestReportInBrowserFrontLinks(t *testing.T) {
	chromiumPath(t)
	dir := smallFrontLearn(t)
	ctx, _ := browse(t, dir)
	links := run(t, ctx, chromedp.Evaluate[[][2]string](`Array.from(document.querySelectorAll("#fig-front svg a")).map(function(a){
		var h=a.getAttribute("href"); var el=document.getElementById(h.slice(1));
		return [h, el ? (el.className + " " + el.textContent) : ""];})`))
	if len(links) == 0 {
		t.Fatal("the front figure has no links")
	}
	for _, l := range links {
		if !strings.HasPrefix(l[0], "#formula-front-") {
			t.Errorf("link %q is not to a front member's formula", l[0])
		}
		member := strings.TrimPrefix(l[0], "#formula-")
		if !strings.HasPrefix(l[1], "formula ") || !strings.Contains(l[1], member+": f = ") {
			t.Errorf("link %s: target %q is not %s's formula", l[0], l[1], member)
		}
	}
	run(t, ctx, chromedp.Evaluate[bool](`(document.querySelector("#fig-front svg a").dispatchEvent(new MouseEvent("click", {bubbles: true})), true)`))
	hash := run(t, ctx, chromedp.Evaluate[string](`location.hash`))
	if hash != links[0][0] {
		t.Errorf("after a click on the first point the page is at %q, want %q", hash, links[0][0])
	}
	checkFiguresRender(t, ctx, 2)
}

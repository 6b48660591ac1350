package progress

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Reporter counts finished steps of a task of known size.
type Reporter struct {
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
	log     *slog.Logger
	what    string
	total   int
	done    int
	every   time.Duration
	last    time.Time
	start   time.Time
	extra   string
	enabled bool
}

// Options tune a Reporter.
type Options struct {
	// Out is where output goes (default os.Stderr).
	Out io.Writer
	// Terminal forces bar (true) or log (false) mode; nil detects it.
	Terminal *bool
	// Every is the minimum interval between log lines (default 5 s).
	Every time.Duration
	// Quiet disables all output.
	Quiet bool
}

// New starts reporting a task of total steps described by what.
func New(what string, total int, o Options) *Reporter {
	out := o.Out
	if out == nil {
		out = os.Stderr
	}
	isTerm := false
	if o.Terminal != nil {
		isTerm = *o.Terminal
	} else if f, ok := out.(*os.File); ok {
		isTerm = term.IsTerminal(int(f.Fd()))
	}
	every := o.Every
	if every == 0 {
		every = 5 * time.Second
	}
	r := &Reporter{what: what, total: total, every: every, start: time.Now(), enabled: !o.Quiet}
	r.last = r.start
	if !r.enabled {
		return r
	}
	if isTerm {
		r.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(out),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
		)
	} else {
		r.log = slog.New(slog.NewTextHandler(out, nil))
	}
	return r
}

// Describe sets a short status (e.g. "best 0.93") shown with the progress.
func (r *Reporter) Describe(status string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.extra = status
	if r.bar != nil {
		r.bar.Describe(fmt.Sprintf("%s %s", r.what, status))
	}
}

// Tick reports progress inside a long step: it sets the status and, in
// log mode, writes a line when the log interval has passed, so a long
// simulation never goes silent.
func (r *Reporter) Tick(status string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.extra = status
	if !r.enabled {
		return
	}
	if r.bar != nil {
		r.bar.Describe(fmt.Sprintf("%s %s", r.what, status))
		return
	}
	if now := time.Now(); now.Sub(r.last) >= r.every {
		r.last = now
		r.logLine(now)
	}
}

// Add records n more finished steps.
func (r *Reporter) Add(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done += n
	if !r.enabled {
		return
	}
	if r.bar != nil {
		r.bar.Add(n)
		return
	}
	now := time.Now()
	if now.Sub(r.last) >= r.every || r.done == r.total {
		r.last = now
		r.logLine(now)
	}
}

func (r *Reporter) logLine(now time.Time) {
	elapsed := now.Sub(r.start)
	eta := time.Duration(0)
	if r.done > 0 && r.total > r.done {
		eta = time.Duration(float64(elapsed) / float64(r.done) * float64(r.total-r.done))
	}
	r.log.Info(r.what, "done", r.done, "total", r.total, "status", r.extra,
		"elapsed", elapsed.Round(time.Second).String(), "eta", eta.Round(time.Second).String())
}

// Finish ends the report.
func (r *Reporter) Finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bar != nil {
		r.bar.Finish()
	}
}

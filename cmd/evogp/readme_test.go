package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeCommands returns the evogp commands the README shows: the
// backticked `evogp …` spans of its table rows, the `go run ./cmd/evogp …`
// span of its first line, and the `evogp …` lines of its fenced code
// blocks (a trailing backslash continues a line; a `# …` comment is
// dropped). Whitespace is collapsed and a table's `\|` is read as `|`.
func readmeCommands(md string) []string {
	span := regexp.MustCompile("`([^`]+)`")
	comment := regexp.MustCompile(`\s+#\s.*$`)
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var out []string
	inCode := false
	var cont string
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			l := strings.TrimSpace(line)
			if cont == "" && !strings.HasPrefix(l, "evogp ") {
				continue
			}
			l = comment.ReplaceAllString(l, "")
			if strings.HasSuffix(l, `\`) {
				cont += strings.TrimSuffix(l, `\`) + " "
				continue
			}
			out = append(out, norm(cont+l))
			cont = ""
			continue
		}
		for _, m := range span.FindAllStringSubmatch(line, -1) {
			s := m[1]
			switch {
			case strings.HasPrefix(line, "|") && strings.HasPrefix(s, "evogp "):
				out = append(out, norm(strings.ReplaceAll(s, `\|`, "|")))
			case strings.HasPrefix(s, "go run ./cmd/evogp"):
				out = append(out, norm(s))
			}
		}
	}
	return out
}

// shellWords splits a command line as a POSIX shell would for the simple
// words the README uses: blanks separate words, and single or double
// quotes group (and are removed).
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// readmeCase says how one README command is run by TestReadmeExamples.
type readmeCase struct {
	readme string   // the command as the README writes it ("" for a setup step)
	run    []string // the arguments run (nil: the README's words after "evogp")
	why    string   // why run differs from the README's words
	skip   string   // why the command cannot run here
	needs  string   // a file the command reads, relative to the work dir; the case is skipped when it is absent
	want   []string // what its standard output must show
}

// hydraCases is a small case file in the format of Hydra's public
// evaluation, written for this test (the public files are not in the repo).
const hydraCases = ",job_name,norm_job_submit_time,ddl,A100,V100,GTX2080Ti\n" +
	"0,a,0,inf,100,150,300\n1,b,0,500,200,250,inf\n2,c,0,1000,0,80,90\n"

// readmeCases lists every README command in the order they run (later ones
// use the outputs of earlier ones), with the placeholders (DIR, RUN,
// CASES.csv, optional [...] parts) filled in.
func readmeCases() []readmeCase {
	deploySnapshot, _ := filepath.Abs(filepath.Join("testdata", "deploy-snapshot")) // before the test changes directory
	quickLearn := []string{"learn", "gp.generations=1", "gp.population=9", "gp.subset=2", "data.validation=4", "data.test=4"}
	if os.Getenv("EVOGP_README_FULL") != "" {
		quickLearn = []string{"learn"}
	}
	return []readmeCase{
		{readme: "go run ./cmd/evogp learn", run: quickLearn,
			why:  "one generation of the quick config with 9 members (quick seeds 9), subsets of 2 and 4 validation and test instances (the full run, scope all, takes minutes; EVOGP_README_FULL=1 runs it as written)",
			want: []string{"learned routing R", "scope all", "learned ranking f", "test score", "Wilcoxon", "wait-first"}},
		{readme: "evogp data gen --config quick --instances 50 --seed 1 --out data/train"},
		{readme: "evogp data describe DIR", run: []string{"data", "describe", "data/train"}},
		{readme: "evogp data import philly --in ../shared/traces/philly/philly.csv --out DIR",
			run:   []string{"data", "import", "philly", "--in", "../shared/traces/philly/philly.csv", "--out", "data/philly"},
			needs: "../shared/traces/philly/philly.csv"},
		{readme: "evogp data import hydra --in CASES.csv --out DIR --gpus A100=15,V100=15,GTX2080Ti=15",
			run: []string{"data", "import", "hydra", "--in", "cases.csv", "--out", "data/hydra", "--gpus", "A100=15,V100=15,GTX2080Ti=15"}},
		{readme: "evogp simulate --dataset DIR --scheduler tiresias", run: []string{"simulate", "--dataset", "data/train", "--scheduler", "tiresias"}},
		{readme: "evogp learn [--config quick|paper] [key=value ...]",
			run: []string{"learn", "--config", "smoke", "--out", "runs/smoke", "gp.generations=1"},
			why: "the smoke config (paper-scale learning cannot run in a test)"},
		{run: []string{"data", "gen", "--config", "smoke", "--instances", "2", "--seed", "2", "--out", "data/test"}},
		{readme: "evogp eval --dataset DIR --schedulers spark,liquid,tiresias,lyra,wait-first,gp=RUN/best.json --out DIR",
			run: []string{"eval", "--dataset", "data/test", "--schedulers", "spark,liquid,tiresias,lyra,wait-first,gp=runs/smoke/best.json", "--out", "out/eval"}},
		{readme: "evogp report DIR...", run: []string{"report", "out/eval"}},
		{readme: "evogp deploy slurm RUN --partitions a,b --dry-run",
			run: []string{"deploy", "slurm", "runs/smoke", "--partitions", "a,b", "--dry-run", "--snapshot", deploySnapshot},
			why: "replaying the queue saved in testdata/deploy-snapshot (make test-slurm runs it on a real Slurm)", want: []string{"would change", "Slurm's own order"}},
		{run: []string{"learn", "-m", "--config", "smoke", "--quiet", "objective.kind=single", "objective.omega=0,1", "gp.generations=1", "--out", "sweep"}},
		{readme: "evogp status DIR", run: []string{"status", "sweep"}},
		{readme: "evogp collect DIR", run: []string{"collect", "sweep"}},
		{readme: "evogp task run DIR --index I", run: []string{"task", "run", "sweep", "--index", "0"}},
		{readme: "evogp pressure --config load --out DIR", run: []string{"pressure", "--config", "load", "--out", "out/pressure"}},
		{readme: `evogp expr simplify [--domain] "FORMULA"`, run: []string{"expr", "simplify", "--domain", "g*d - 0*q"}},
		{readme: `evogp expr eval "g*d" d=2 g=8`},
		{readme: "evogp export RUN_DIR --format latex [--domain]", run: []string{"export", "runs/smoke", "--format", "latex", "--domain"}},
		{readme: "evogp completion bash|zsh|fish", run: []string{"completion", "bash"}},
		{run: []string{"completion", "zsh"}},
		{run: []string{"completion", "fish"}},
		{readme: "evogp man"},
		{readme: "evogp search [--depth 3] [gp.terminals=d,q,u,g,a,w]",
			run: []string{"search", "--config", "smoke", "--depth", "3", "gp.terminals=d,q,u,g,a,w"},
			why: "on the smoke config (the default quick config takes minutes)"},
		{readme: "evogp eval --dataset data/test --schedulers liquid,tiresias,lyra,evo-fifo,evo-srsf,evo-lyra --ops-out out/evo/ops.parquet --out out/evo"},
		{readme: "evogp learn -m --config paper objective.kind=single objective.omega=0,0.25,0.5,0.75,1 seed=1,2,3 --out /shared/omega --launcher slurm --partition cpu --time 2:00:00 --cpus-per-task 4 --mem 4G --throttle 20",
			run: []string{"learn", "-m", "--config", "paper", "objective.kind=single", "objective.omega=0,0.25,0.5,0.75,1", "seed=1,2,3", "--out", "slurm-omega",
				"--launcher", "slurm", "--partition", "cpu", "--time", "2:00:00", "--cpus-per-task", "4", "--mem", "4G", "--throttle", "20", "--dry-run"},
			why: "with --dry-run and a local --out: the paper sweep is checked and its task directory and sbatch script written, not submitted (make test-slurm submits on a real Slurm)"},
		{readme: "evogp status /shared/omega", run: []string{"status", "sweep"}, why: "on the local smoke sweep (the Slurm sweep above is not made here)"},
		{readme: "evogp collect /shared/omega", run: []string{"collect", "sweep"}, why: "on the local smoke sweep"},
		{readme: "evogp learn -m --config quick objective.kind=single objective.omega=0,0.25,0.5,0.75,1 data.seed=1 seed=1,2,3 --out sweeps/omega",
			run: []string{"learn", "-m", "--config", "smoke", "--quiet", "objective.kind=single", "objective.omega=0,1", "data.seed=1", "seed=1,2", "gp.generations=1", "--out", "sweeps/omega"},
			why: "the smoke config, two ω and two seeds, one generation"},
		{readme: "evogp figure tradeoff sweeps/omega --out paper"},
		{readme: "evogp export sweeps/omega --format latex --domain --standalone"},
		{readme: `evogp learn --config quick objective.kind=single gp.selection=nsga2 gp.parent_selection=tournament "gp.objectives=[avg_jct,max_qt]" --out runs/front`,
			run: []string{"learn", "--config", "smoke", "--quiet", "objective.kind=single", "gp.selection=nsga2", "gp.parent_selection=tournament", "gp.objectives=[avg_jct,max_qt]", "gp.generations=2", "gp.population=8", "--out", "runs/front"},
			why: "the smoke config, two generations of eight"},
		{readme: "evogp export runs/front --omega 0.3 --format latex"},
		{readme: "evogp eval --dataset data/test --objective single --schedulers spark,liquid,tiresias,lyra,front=runs/front --out out/front"},
	}
}

// The README's commands all work when pasted: every command it shows is
// run through the app, in a fresh directory with ../shared beside it as in
// a clone, with placeholders filled in; only a Slurm submission is
// skipped. A command added to or changed in the README without a case
// here fails the test.
func TestReadmeExamples(t *testing.T) {
	root := moduleRoot(t)
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	shown := readmeCommands(string(md))
	cases := readmeCases()
	var covered []string
	for _, c := range cases {
		if c.readme != "" {
			covered = append(covered, c.readme)
		}
	}
	for _, s := range shown {
		if !slices.Contains(covered, s) {
			t.Errorf("README command %q has no case in readmeCases", s)
		}
	}
	for _, s := range covered {
		if !slices.Contains(shown, s) {
			t.Errorf("readmeCases has %q, which the README no longer shows", s)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	base := t.TempDir()
	work := filepath.Join(base, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if shared, err := filepath.Abs(filepath.Join(root, "..", "shared")); err == nil {
		if _, err := os.Stat(shared); err == nil {
			if err := os.Symlink(shared, filepath.Join(base, "shared")); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Chdir(work)
	if err := os.WriteFile("cases.csv", []byte(hydraCases), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		name := c.readme
		if name == "" {
			name = "setup: evogp " + strings.Join(c.run, " ")
		}
		args := c.run
		if args == nil {
			words := shellWords(c.readme)
			if words[0] != "evogp" {
				t.Fatalf("%q: literal case must start with evogp", c.readme)
			}
			args = words[1:]
		}
		if c.skip != "" {
			t.Logf("skipped %q: %s", name, c.skip)
			continue
		}
		if c.needs != "" {
			if _, err := os.Stat(c.needs); err != nil {
				t.Logf("skipped %q: %s is absent here", name, c.needs)
				continue
			}
		}
		if c.why != "" {
			t.Logf("%q runs as evogp %s: %s", name, strings.Join(args, " "), c.why)
		}
		stdout, stderr, err := runApp(t, args...)
		if err != nil {
			t.Fatalf("%q (run as evogp %s): %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, stdout, stderr)
		}
		if strings.TrimSpace(stdout) == "" {
			t.Errorf("%q printed nothing", name)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%q: the output does not show %q:\n%s", name, w, stdout)
			}
		}
	}
}

// The extraction on a hand-written README: table spans (with \|), the
// go run span, code-block lines with continuations and comments.
func TestReadmeCommandsExtraction(t *testing.T) {
	md := "Run `go run ./cmd/evogp learn` first; see `evogp --help`.\n\n" +
		"| command | does |\n|---|---|\n" +
		"| `evogp a DIR`, `evogp b x\\|y` | `--flag` |\n\n" +
		"```\nevogp c --x 1 \\\n    --y 2\nevogp d DIR      # a comment\nclusters.csv: not a command\n```\n"
	got := readmeCommands(md)
	want := []string{"go run ./cmd/evogp learn", "evogp a DIR", "evogp b x|y", "evogp c --x 1 --y 2", "evogp d DIR"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if w := shellWords(`expr eval "g*d" d=2 'a b'`); !slices.Equal(w, []string{"expr", "eval", "g*d", "d=2", "a b"}) {
		t.Fatalf("shellWords: %q", w)
	}
}

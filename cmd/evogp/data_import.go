package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/datasets/philly"
	"github.com/evogp/evogp/experiment"
)

// Defaults of `evogp data import philly`: the two months (October and
// November 2017) the Helios study and the trace notes use, and the Helios
// VC file beside the trace.
const (
	phillyDefaultFrom   = "2017-10-01"
	phillyDefaultTo     = "2017-12-01"
	phillyDefaultVCFile = "helios_philly_vc.csv"
)

// dataImportCommand is `evogp data import`: real traces into datasets.
func dataImportCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "convert a real trace into datasets (one per split)",
		UsageText:   "evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly [options]",
		Subcommands: []*cli.Command{dataImportPhillyCommand(), dataImportHydraCommand()},
	}
}

func dataImportPhillyCommand() *cli.Command {
	return &cli.Command{
		Name:  "philly",
		Usage: "import the Microsoft Philly trace (timestamp,duration,num_gpus,gpu_time,cluster)",
		UsageText: "evogp data import philly --in philly.csv --out DIR [--from D --to D] [--instance-span 24h]\n" +
			"      [--train A..B --validation A..B --test A..B] [--vcs VC,VC,...] [--vc-file F]\n" +
			"      [--capacity helios|load:RHO|VC=N,...] [--capacity-scale S] [--single-cluster --nodes N]\n" +
			"      [--gpus-per-node 8] [--priority 1] [--format parquet|csv]\n\n" +
			"   Examples:\n" +
			"   evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly-multi \\\n" +
			"       --train 2017-10-01..2017-10-15 --validation 2017-10-15..2017-10-22 --test 2017-10-22..2017-11-05\n" +
			"   evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly-single \\\n" +
			"       --single-cluster --nodes 100 --train 2017-10-01..2017-10-15 --test 2017-10-15..2017-10-29\n\n" +
			"   Every data row is a job whose id is its 0-based row in the file; priority is --priority\n" +
			"   (the trace has none). Jobs are grouped into instances of --instance-span from each window's\n" +
			"   start (arrivals relative to the span start). With split windows DIR/<split> is written for\n" +
			"   each; otherwise DIR is one dataset. Rows that cannot be used are counted by reason and\n" +
			"   printed; a corrupt file (header, field count, quoting) is an error naming the line.\n" +
			"   Capacities: helios = the VC file's node counts (default; beside --in); VC=N,... explicit;\n" +
			"   load:RHO = per VC the smallest node count with offered load Σ g·d / (N·G·window) ≤ RHO,\n" +
			"   never below what its largest job needs; --capacity-scale S multiplies fixed counts\n" +
			"   (ceil) and raises them so every job fits. --single-cluster merges the kept VCs into one\n" +
			"   cluster of --nodes nodes (or the helios sum, or load:RHO). See `go doc datasets/philly`.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "in", Required: true, Usage: "the Philly CSV file"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "new output directory (must not exist or be empty)"},
			&cli.StringFlag{Name: "from", Usage: "keep submit times ≥ this (YYYY-MM-DD[ HH:MM:SS], UTC) (default: " + phillyDefaultFrom + ", or the first split's start)"},
			&cli.StringFlag{Name: "to", Usage: "keep submit times < this (default: " + phillyDefaultTo + ", or the last split's end)"},
			&cli.DurationFlag{Name: "instance-span", Value: philly.DefaultSpan, Usage: "length of one instance (24h: one per day, 168h: one per week)"},
			&cli.StringFlag{Name: "train", Usage: "train split window FROM..TO (writes DIR/train)"},
			&cli.StringFlag{Name: "validation", Usage: "validation split window FROM..TO (writes DIR/validation)"},
			&cli.StringFlag{Name: "test", Usage: "test split window FROM..TO (writes DIR/test)"},
			&cli.StringFlag{Name: "vcs", Usage: "VCs to keep, in cluster order (default: the VCs of the VC file)"},
			&cli.StringFlag{Name: "vc-file", Usage: "VC node counts (default: " + phillyDefaultVCFile + " beside --in)"},
			&cli.IntFlag{Name: "gpus-per-node", Value: philly.DefaultGPUsPerNode, Usage: "GPUs per node of every cluster"},
			&cli.StringFlag{Name: "capacity", Value: "helios", Usage: "node counts: helios, load:RHO or VC=N,VC=N"},
			&cli.Float64Flag{Name: "capacity-scale", Usage: "multiply fixed node counts (ceil), raised so every kept job fits"},
			&cli.BoolFlag{Name: "single-cluster", Usage: "merge the kept VCs into one cluster"},
			&cli.IntFlag{Name: "nodes", Usage: "node count of the single cluster (--single-cluster)"},
			&cli.IntFlag{Name: "priority", Value: philly.DefaultPriority, Usage: "priority u of every job (the trace has none)"},
			&cli.StringFlag{Name: "format", Value: datasets.FormatParquet, Usage: "table format: parquet or csv"},
		},
		Action: dataImportPhilly,
	}
}

func dataImportPhilly(c *cli.Context) error {
	format := c.String("format")
	if format != datasets.FormatParquet && format != datasets.FormatCSV {
		return fmt.Errorf("--format %q: must be %s or %s", format, datasets.FormatParquet, datasets.FormatCSV)
	}
	in, out := c.String("in"), c.String("out")
	if err := dataCheckNewDir(out); err != nil {
		return err
	}
	// The trace first: the VC file is looked up beside it, and a wrong
	// --in must not be reported as a missing VC file.
	if st, err := os.Stat(in); err != nil {
		return fmt.Errorf("--in: %w", err)
	} else if st.IsDir() {
		return fmt.Errorf("--in %s: is a directory, want the trace CSV", in)
	}
	opts, err := phillyOptions(c)
	if err != nil {
		return err
	}
	res, err := philly.ImportFile(in, opts)
	if err != nil {
		if res.Counts.Rows > 0 {
			// Show why nothing was kept before failing.
			_ = phillyPrintCounts(c.App.Writer, in, res)
		}
		return err
	}
	if len(opts.Splits) == 0 {
		if err := datasets.Write(out, &res.Splits[0].Dataset, format); err != nil {
			return err
		}
	} else {
		splits := make([]experiment.NamedDataset, len(res.Splits))
		for i := range res.Splits {
			splits[i] = experiment.NamedDataset{Name: res.Splits[i].Name, Dataset: &res.Splits[i].Dataset}
		}
		if err := experiment.WriteSplits(out, splits, format); err != nil {
			return err
		}
	}
	w := c.App.Writer
	if err := phillyPrintCounts(w, in, res); err != nil {
		return err
	}
	if err := phillyPrintClusters(w, res, opts.GPUsPerNode); err != nil {
		return err
	}
	return phillyPrintSplits(w, res, out, format)
}

// phillyOptions turns the flags into import options (package philly does
// the checking of ranges and consistency).
func phillyOptions(c *cli.Context) (philly.Options, error) {
	o := philly.Options{
		Span:          c.Duration("instance-span"),
		GPUsPerNode:   c.Int("gpus-per-node"),
		SingleCluster: c.Bool("single-cluster"),
		Scale:         c.Float64("capacity-scale"),
		Priority:      c.Int("priority"),
		Record:        map[string]string{},
	}
	if o.GPUsPerNode < 1 {
		return o, fmt.Errorf("--gpus-per-node %d: must be ≥ 1", o.GPUsPerNode)
	}
	if o.Priority < 1 {
		return o, fmt.Errorf("--priority %d: must be ≥ 1", o.Priority)
	}
	if c.IsSet("capacity-scale") && !(o.Scale > 0) {
		return o, fmt.Errorf("--capacity-scale %v: must be > 0", o.Scale)
	}
	for _, name := range []string{"train", "validation", "test"} {
		if !c.IsSet(name) {
			continue
		}
		w, err := philly.ParseWindow(c.String(name))
		if err != nil {
			return o, fmt.Errorf("--%s: %w", name, err)
		}
		o.Splits = append(o.Splits, philly.Split{Name: name, Window: w})
	}
	from, to := phillyDefaultFrom, phillyDefaultTo
	var err error
	if len(o.Splits) > 0 {
		first, last := o.Splits[0].Window.From, o.Splits[0].Window.To
		for _, s := range o.Splits[1:] {
			if s.Window.From.Before(first) {
				first = s.Window.From
			}
			if s.Window.To.After(last) {
				last = s.Window.To
			}
		}
		o.Window = philly.Window{From: first, To: last}
	} else {
		if o.Window.From, err = philly.ParseTime(from); err != nil {
			return o, err
		}
		if o.Window.To, err = philly.ParseTime(to); err != nil {
			return o, err
		}
	}
	if c.IsSet("from") {
		if o.Window.From, err = philly.ParseTime(c.String("from")); err != nil {
			return o, fmt.Errorf("--from: %w", err)
		}
	}
	if c.IsSet("to") {
		if o.Window.To, err = philly.ParseTime(c.String("to")); err != nil {
			return o, fmt.Errorf("--to: %w", err)
		}
	}
	if !o.Window.From.Before(o.Window.To) {
		return o, fmt.Errorf("--from %s is not before --to %s", o.Window.From.Format(time.DateTime), o.Window.To.Format(time.DateTime))
	}

	capacity := strings.TrimSpace(c.String("capacity"))
	o.Record["capacity_flag"] = capacity
	var vcFile []philly.VC
	if !c.IsSet("vcs") || capacity == "helios" {
		path := c.String("vc-file")
		if path == "" {
			path = filepath.Join(filepath.Dir(c.String("in")), phillyDefaultVCFile)
		}
		if vcFile, err = philly.ReadVCFile(path); err != nil {
			return o, fmt.Errorf("--vc-file: %w", err)
		}
		o.Record["vc_file"] = path
	}
	if c.IsSet("vcs") {
		for _, vc := range strings.Split(c.String("vcs"), ",") {
			o.VCs = append(o.VCs, strings.TrimSpace(vc))
		}
	} else {
		for _, vc := range vcFile {
			o.VCs = append(o.VCs, vc.ID)
		}
	}

	if c.IsSet("nodes") && !o.SingleCluster {
		return o, errors.New("--nodes is the node count of --single-cluster; for one cluster per VC use --capacity")
	}
	switch {
	case o.SingleCluster && c.IsSet("nodes"):
		if c.IsSet("capacity") {
			return o, errors.New("--single-cluster: give --nodes or --capacity, not both")
		}
		o.SingleNodes = c.Int("nodes")
		if o.SingleNodes < 1 {
			return o, fmt.Errorf("--nodes %d: must be ≥ 1", o.SingleNodes)
		}
		o.Record["capacity_flag"] = "nodes=" + strconv.Itoa(o.SingleNodes)
	case strings.HasPrefix(capacity, "load:"):
		rho, err := strconv.ParseFloat(strings.TrimPrefix(capacity, "load:"), 64)
		if err != nil || !(rho > 0) || rho > 1e6 {
			return o, fmt.Errorf("--capacity %q: want load:RHO with RHO > 0, e.g. load:0.8", capacity)
		}
		o.Load = rho
	case capacity == "helios":
		helios := make(map[string]int, len(vcFile))
		for _, vc := range vcFile {
			helios[vc.ID] = vc.Nodes
		}
		o.Nodes = make(map[string]int, len(o.VCs))
		for _, vc := range o.VCs {
			n, ok := helios[vc]
			if !ok {
				return o, fmt.Errorf("--capacity helios: VC %s has no node count in %s; use --capacity VC=N,... or load:RHO", vc, o.Record["vc_file"])
			}
			o.Nodes[vc] = n
			o.SingleNodes += n
		}
		if o.SingleCluster {
			o.Nodes = nil
		} else {
			o.SingleNodes = 0
		}
	case strings.Contains(capacity, "="):
		if o.SingleCluster {
			return o, errors.New("--single-cluster: give its size with --nodes N, not per-VC counts")
		}
		o.Nodes = map[string]int{}
		for _, part := range strings.Split(capacity, ",") {
			vc, n, ok := strings.Cut(strings.TrimSpace(part), "=")
			nodes, err := strconv.Atoi(strings.TrimSpace(n))
			if !ok || err != nil || nodes < 1 {
				return o, fmt.Errorf("--capacity %q: %q is not VC=N with N ≥ 1", capacity, part)
			}
			vc = strings.TrimSpace(vc)
			if _, dup := o.Nodes[vc]; dup {
				return o, fmt.Errorf("--capacity: VC %s given twice", vc)
			}
			o.Nodes[vc] = nodes
		}
	default:
		return o, fmt.Errorf("--capacity %q: want helios, load:RHO or VC=N,VC=N", capacity)
	}
	return o, nil
}

// phillyPrintCounts prints what happened to the rows, one line per reason.
func phillyPrintCounts(w io.Writer, in string, res philly.Result) error {
	c := res.Counts
	head := fmt.Sprintf("read %s: %d rows, %d kept as jobs, %d skipped", in, c.Rows, c.Kept, c.SkippedTotal())
	if res.SHA256 != "" {
		head += " (sha256 " + res.SHA256 + ")"
	}
	if _, err := fmt.Fprintln(w, head); err != nil {
		return err
	}
	rows := [][]string{{"skipped", "rows", "first line", "why"}}
	for r := philly.Reason(0); r < philly.NumReasons; r++ {
		first := "-"
		if c.FirstLine[r] > 0 {
			first = strconv.Itoa(c.FirstLine[r])
		}
		rows = append(rows, []string{r.String(), strconv.Itoa(c.Skipped[r]), first, r.Describe()})
	}
	rows = append(rows, []string{"total", strconv.Itoa(c.SkippedTotal()), "-", "all reasons"})
	if err := dataWriteAligned(w, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d kept jobs had a duration below 1 s and were given 1 s\n", c.RaisedToOneSecond)
	return err
}

func phillyPrintClusters(w io.Writer, res philly.Result, gpn int) error {
	rows := [][]string{{"cluster", "nodes", "GPUs", "jobs", "GPU-h", "load", "VC (capacity rule)"}}
	for p, c := range res.Clusters {
		rows = append(rows, []string{strconv.Itoa(p), strconv.Itoa(c.Nodes), strconv.Itoa(c.Nodes * gpn), strconv.Itoa(c.Jobs),
			fmt.Sprintf("%.1f", c.GPUSeconds/3600), fmt.Sprintf("%.2f", c.Load), strings.Join(c.VCs, "+") + " (" + c.Rule + ")"})
	}
	return dataWriteAligned(w, rows)
}

func phillyPrintSplits(w io.Writer, res philly.Result, out, format string) error {
	rows := [][]string{{"split", "instances", "empty spans", "jobs", "window → directory"}}
	for _, s := range res.Splits {
		name, dir := s.Name, out
		if name == "" {
			name = "(all)"
		} else {
			dir = filepath.Join(out, s.Name)
		}
		rows = append(rows, []string{name, strconv.Itoa(len(s.Dataset.Instances)), strconv.Itoa(s.EmptySpans), strconv.Itoa(s.Jobs),
			s.Window.String() + " → " + dir})
	}
	if err := dataWriteAligned(w, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "wrote %d dataset(s) as %s to %s\n", len(res.Splits), format, out)
	return err
}

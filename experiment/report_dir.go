package experiment

import (
	"errors"
	"io"
	"path/filepath"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/reports/runreport"
)

// The HTML report of an output directory (SPEC §18) is built by package
// reports/runreport; this file gives it what only experiment knows (the
// manifest, provenance and sweep-point layout it writes, ReportEnv) and
// keeps the names experiment and the command layer use.

// Tables are the result tables of one output directory (runreport.Tables).
type Tables = runreport.Tables

// FigureOptions choose what Tables.Render draws (runreport.FigureOptions).
type FigureOptions = runreport.FigureOptions

// File is one rendered output file (runreport.File).
type File = runreport.File

// Files are rendered output files (runreport.Files).
type Files = runreport.Files

// ReportOptions choose what the report holds (runreport.ReportOptions).
type ReportOptions = runreport.ReportOptions

// ReportFile is the self-contained HTML report of an output directory.
const ReportFile = runreport.ReportFile

// DefaultReportInstances is the number of instances up to which every
// instance of an eval gets its own figures in the report.
const DefaultReportInstances = runreport.DefaultReportInstances

// ReportEnv tells the report where experiment puts a sweep's points
// (pointDirOf); the report reads the manifest, provenance and the learn
// runs' files through runfile.
func ReportEnv() runreport.Env {
	return runreport.Env{PointDir: pointDirOf}
}

// WriteReport builds dir's report from its tables and figure files as
// they are on disk and writes dir/report.html atomically (an earlier
// report stays intact on error). It is the path of sweeps, learn runs and
// estimate directories; eval, pressure and evogp report build the report
// from the tables and files they have just rendered (Tables.Report).
func WriteReport(dir string, o ReportOptions) error { return writeReport(dir, o, nil) }

// writeReport is WriteReport with the bytes written through wrap (nil:
// directly), so a test can make the write fail halfway.
func writeReport(dir string, o ReportOptions, wrap func(io.Writer) io.Writer) error {
	t, err := ReadTables(dir)
	var noTable *noTableError
	if err != nil && !errors.As(err, &noTable) {
		return err
	}
	f, err := t.Report(dir, nil, FigureOptions{}, o, ReportEnv())
	if err != nil {
		return err
	}
	return atomicio.WriteFile(filepath.Join(dir, f.Name), func(w io.Writer) error {
		if wrap != nil {
			w = wrap(w)
		}
		_, err := w.Write(f.Data)
		return err
	})
}

// noTableError says that a directory holds none of the known tables.
type noTableError struct{ msg string }

func (e *noTableError) Error() string { return e.msg }

// Headline is the summary sentence of an eval (reports.Headline).
func Headline(s reports.Summary) string { return reports.Headline(s) }

// writeReportWith writes dir's report from the tables and files just
// rendered into it; shown is the directory's name for the reader.
func writeReportWith(dir, shown string, t Tables, files Files, fo FigureOptions, warnings []string) error {
	f, err := t.Report(dir, files, fo, ReportOptions{Dir: shown, Warnings: warnings}, ReportEnv())
	if err != nil {
		return err
	}
	return atomicio.WriteBytes(filepath.Join(dir, f.Name), f.Data)
}

// reportRun writes the report of a finished learning run in dir; an
// unfinished or failed run (runErr ≠ nil) gets none.
func reportRun(dir string, runErr error) error {
	if runErr != nil {
		return runErr
	}
	return WriteReport(dir, ReportOptions{})
}

// checkReference fails when o requires a reference scheduler that the
// results do not have (runreport.CheckReference).
func checkReference(results []reports.ResultRow, o FigureOptions) error {
	return runreport.CheckReference(results, o)
}

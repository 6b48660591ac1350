package experiment

// WriteReportThrough exposes writeReport to the external tests, which
// inject a writer that fails halfway.
var WriteReportThrough = writeReport

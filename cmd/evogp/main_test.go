package main

import (
	"bytes"
	"testing"
	"time"
)

// runApp runs the CLI with args (without the program name) and returns
// stdout, stderr and the error, as a user at a terminal would see them.
func runApp(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	full := append([]string{"evogp"}, args...)
	setInvocation(app, full, time.Now())
	err := app.Run(full)
	return out.String(), errOut.String(), err
}

package experiment

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// RunPressureCommand runs the load-pressure study of s (see Pressure) and
// writes to w what it wrote: the output directory, the size of the study
// and the files.
func RunPressureCommand(ctx context.Context, s PressureSettings, w io.Writer) error {
	files, err := Pressure(ctx, s)
	if err != nil {
		return err
	}
	p := s.Config.Pressure
	fmt.Fprintf(w, "wrote %s: %d schedulers × %d intervals × %d seeds, %s\n", s.Out, len(s.Policies), len(p.Intervals), p.Seeds, strings.Join(files, ", "))
	return nil
}

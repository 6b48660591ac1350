package reports

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/evogp/evogp/internal/figure"
)

// Figure is a grid of plots rendered together into one file per format
// (internal/figure, shared with the learner's convergence plot).
type Figure = figure.Figure

// Formats lists the output formats Figure.Render understands.
func Formats() []string { return figure.Formats() }

// OkabeIto returns the Okabe–Ito colour-blind-safe palette.
func OkabeIto() []color.Color { return figure.OkabeIto() }

func seriesColor(i int) color.Color                { return figure.SeriesColor(i) }
func seriesDash(i int) []vg.Length                 { return figure.SeriesDash(i) }
func withAlpha(c color.Color, a uint8) color.Color { return figure.WithAlpha(c, a) }
func newPlot(title, x, y string) *plot.Plot        { return figure.NewPlot(title, x, y) }
func fileStem(s string) string                     { return figure.FileStem(s) }

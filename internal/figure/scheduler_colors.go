package figure

import (
	"image/color"
	"strings"
)

// schedulerColorIndex fixes the colour (an index into LabelColors) of the
// schedulers that appear across evogp's figures, so that a scheduler is
// drawn in one colour in every figure that uses SchedulerColor, whatever
// else the figure holds.
var schedulerColorIndex = map[string]int{
	"spark": 0, "liquid": 1, "lyra": 2, "tiresias": 3, "srsf": 4, "fifo": 5,
	"learned": 6, // black: the learned policy
	"hydra":   7, "edf": 8, "sjf-fastest": 9, "allox": 10, "chronus": 11,
}

// SchedulerColor is the fixed colour of a known scheduler name, and ok
// false for any other (the caller then uses a Palette).
func SchedulerColor(name string) (c color.Color, ok bool) {
	i, ok := fixedIndex(name)
	if !ok {
		return nil, false
	}
	return LabelColors()[i], true
}

// fixedIndex is the fixed colour index of a scheduler label: its own name,
// the first name of a folded row ("tiresias = srsf" is drawn as tiresias),
// or the name before a Hydra spec's parameters ("hydra:budget=10").
func fixedIndex(label string) (int, bool) {
	if i, ok := schedulerColorIndex[label]; ok {
		return i, true
	}
	name, _, _ := strings.Cut(label, " = ")
	name, _, _ = strings.Cut(name, ":")
	i, ok := schedulerColorIndex[strings.TrimSpace(name)]
	return i, ok
}

package figure

import "image/color"

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
	i, ok := schedulerColorIndex[name]
	if !ok {
		return nil, false
	}
	return LabelColors()[i], true
}

package experiment

import "fmt"

// TimeUnitSeconds reports whether the time unit of formulas named by unit
// (--time-unit: hours, the default, or seconds) is seconds.
func TimeUnitSeconds(unit string) (bool, error) {
	switch unit {
	case "hours":
		return false, nil
	case "seconds":
		return true, nil
	}
	return false, fmt.Errorf("time-unit %q: want hours or seconds", unit)
}

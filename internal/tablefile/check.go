package tablefile

import (
	"fmt"
	"math"
)

// Finite checks name/value pairs (a string, then a float64) for NaN and ±Inf,
// for the row checks of the tables written through this package.
func Finite(pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if v := pairs[i+1].(float64); math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s = %v is not finite", pairs[i], v)
		}
	}
	return nil
}

// NonNegative checks name/value pairs to be finite and ≥ 0.
func NonNegative(pairs ...any) error {
	if err := Finite(pairs...); err != nil {
		return err
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		if v := pairs[i+1].(float64); v < 0 {
			return fmt.Errorf("%s = %v is negative", pairs[i], v)
		}
	}
	return nil
}

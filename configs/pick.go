package configs

// PickCriteria are gp.pick's criteria of the final pick on validation, in
// the order the error message lists them ("" means mean). learn's
// pickScore computes each one.
func PickCriteria() []string { return []string{"mean", "pooled", "mean+worst"} }

// FitnessCriteria are gp.fitness's training fitness criteria, in the order
// the error message lists them ("" means mean). learn's evaluator computes
// each one.
func FitnessCriteria() []string { return []string{"mean", "pooled"} }

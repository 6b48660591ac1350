package configs

// PickCriteria are gp.pick's criteria of the final pick on validation, in
// the order the error message lists them ("" means mean). learn's
// pickScore computes each one.
func PickCriteria() []string { return []string{"mean", "pooled", "mean+worst"} }

package simcore

// testHooks are the simulator's test-only switches. They are not part of
// Options: Simulate runs with the zero hooks, and only the package's tests
// (export_test.go, for the external test package) reach simulate with
// others.
type testHooks struct {
	// alwaysReplan disables plan reuse across operations: every cluster is
	// replanned from its fixed jobs at every operation on the reference
	// path, which the planner's refinements are tested against.
	alwaysReplan bool
	// fullPlans makes the simulation's planners place every job instead of
	// stopping at the next arrival's horizon.
	fullPlans bool
	// noListLevels keeps the list scheduler's cluster plans and MCT's
	// what-ifs on the start cache where they would read the levels
	// (planlevels.go): the reference the levels are tested against.
	noListLevels bool
	// alwaysListLevels loads levels for every state, whatever its queue
	// length (planlevels.go: levelsMinQueue).
	alwaysListLevels bool
	// refReleaseSort sorts every batch of releases by comparison
	// (relsort.go): the reference the radix sort is tested against.
	refReleaseSort bool
	// freshWhatIfs makes the allocation seam's level planners anew at
	// every WhatIfs call instead of reloading pooled ones (whatif.go:
	// levelSets): the reference the pool is tested against.
	freshWhatIfs bool
	// eagerStartCache applies each placement to every start-cache entry
	// at once instead of through the cache's log (startcache.go): the
	// reference the lazy updates are tested against.
	eagerStartCache bool
	// startCacheFlushAt, when > 0, replaces the start cache's log bound
	// logFlushAt (so the tests reach its flush).
	startCacheFlushAt int
	// noKeyMemo evaluates the allocation seam's keys on every call
	// (clusterblind.go: keyMemo): the reference the memo is tested against.
	noKeyMemo bool
	// stats, when set, counts how plans were built.
	stats *planStats
}

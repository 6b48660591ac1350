// Package runlog is a learning run's generation log: the GenerationRow
// table (generations.parquet) and the convergence figure drawn from it.
// learn writes both and reports reads and redraws them, so the one
// definition lives here, where neither has to import the other. It imports
// internal/figure and internal/tablefile of evogp's packages.
package runlog

// Package stats holds the statistics shared by reports and learn: the
// paired Wilcoxon signed-rank test. It imports no evogp package.
package stats

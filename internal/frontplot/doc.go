// Package frontplot draws a trade-off front (SPEC §17): the members of a
// front of formulas and every baseline as labelled points in the plane of
// two objectives, the front's non-dominated members joined by a line,
// members coloured by the ω interval they win, and log axes where a range
// spans more than two decades. learn draws the validation front with it
// (front.png/.svg), experiment and reports the test-set trade-off plot.
//
// It imports internal/figure and internal/pareto only; it must not import
// learn, experiment or reports.
package frontplot

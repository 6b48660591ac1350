// Command frontstudy reads the results.parquet of an `evogp eval` that ran
// the baselines, SRSF, a front (front=RUN) and the formulas of a scalar ω
// sweep on a test split, and prints the issue-27 comparison as Markdown:
// the test hypervolume of the front and of the sweep, the baselines each
// dominates, and per ω the test objective of the front's pick (chosen on
// validation, from the run's best.json), of the sweep's run and of the best
// baseline. Objectives are normalised by SRSF per instance and averaged
// (SPEC §17); the reference point is 1.1 × the worst of SRSF and the
// baselines per objective on the test split.
//
//	go run ./scripts/frontstudy -results EV/results.parquet -run RUN \
//	  -objectives avg_jct,max_qt -sweep w0=0,w0.25=0.25,... [-third 0]
//
// For three objectives, ω weighs the first two and -third the third.
// Without -sweep the front alone is scored. With -eq5 B1,B2,… it also
// prints issue 42's Eq. 5 check: for each weight vector (1,1,1),
// (1,0.1,1), (1,0.01,1), (0.1,1,1) over the raw test means of (cq_avg,
// cq_max, 1 − util), the best member on test against the best of the
// baselines B1,B2,…. Each -eq5-own ω1,ω2,ω3=EV/results.parquet (an eval
// run with --weights ω1,ω2,ω3) adds, for that vector, the baselines of
// that eval as "B@ω1,ω2,ω3": EVO optimises the weights it is given, so
// under another vector it is another scheduler.
// It imports the learner (best.json), reports (results.parquet) and
// internal/pareto; nothing imports it.
package main

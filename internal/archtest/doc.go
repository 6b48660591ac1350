// Package archtest holds the test that enforces the import rules of the
// project's packages (SPEC §1); it has no code of its own.
//
// The rules, for the non-test imports of each package, transitively (a
// package may not reach a forbidden package through another one):
//
//	expr, simcore           no evogp package
//	configs                 datasets, simcore/... (evo.Params), internal/*
//	simcore/evo             simcore, internal/* (through the allocation seam)
//	simcore/* (policies)    simcore, internal/*
//	formula                 expr, simcore, configs (and datasets), internal/* (not learn)
//	internal/profiling      internal/atomicio
//	internal/*              only internal/*
//	datasets/...            simcore, internal/* (not configs)
//	learn/...               expr, simcore/..., policies (and so hydra), formula, datasets, configs, internal/* (not reports)
//	reports/runreport       expr, runfile (what a run writes), reports/..., internal/*
//	reports/...             only internal/*
//	estimate/...            simcore, internal/*
//	hydra/...               simcore
//	policies                simcore/..., hydra/..., internal/* (the one registry)
//	launch                  only internal/* (task directories and launchers; experiment gives it the task kinds)
//	experiment/...          everything but cmd (it composes the others)
//	cmd/...                 anything
//	scripts/...             everything but cmd (study tools run with go run)
//
// Nothing but cmd imports experiment, and nothing imports cmd. Of
// experiment's files only learn.go, cmd_learn.go and cmd_data_describe.go
// (the learn command and the learner's flat-baselines warning of data
// describe) and front.go (a learn run's front) import learn: evaluating a
// saved policy does not need the learner. A package with no rule is an
// error, so a new package comes with its rule. Tests may
// import more (simcore's tests use datasets, for example).
//
// archtest imports nothing.
package archtest

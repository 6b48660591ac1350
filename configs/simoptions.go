package configs

import (
	"fmt"

	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// Resolve is the objective section as simcore's objective: the kind named
// by objective.kind in simcore's table of kinds (simcore.ObjectiveKinds),
// with the section's weights and ω, validated by the kind.
func (o Objective) Resolve() (simcore.Objective, error) {
	kind, err := simcore.ParseObjectiveKind(o.Kind)
	if err != nil {
		return simcore.Objective{}, err
	}
	obj := simcore.Objective{Kind: kind, Weights: o.Weights, Omega: o.Omega}
	if err := obj.Validate(); err != nil {
		return simcore.Objective{}, err
	}
	return obj, nil
}

// SimOptions maps a config's sim and objective sections to the simulator
// options: the one translation, so that the learner's scoring, sweeps,
// test sets and evaluations of a saved policy use exactly the same
// settings.
func SimOptions(cfg Config) (simcore.Options, error) {
	trig, err := simcore.ParseTrigger(cfg.Sim.Trigger)
	if err != nil {
		return simcore.Options{}, err
	}
	bf, err := simcore.ParseBackfill(cfg.Sim.Backfill)
	if err != nil {
		return simcore.Options{}, err
	}
	obj, err := cfg.Objective.Resolve()
	if err != nil {
		return simcore.Options{}, err
	}
	ties, err := simcore.ParseArrivalTies(cfg.Sim.ArrivalTies)
	if err != nil {
		return simcore.Options{}, fmt.Errorf("sim.arrival_ties: %w", err)
	}
	return simcore.Options{Trigger: trig, Backfill: bf, Objective: obj, ArrivalTies: ties}, nil
}

// EVOParams translates a config's evo section and run seed into the EVO
// allocator's parameters (SPEC §11): operation k of a simulation draws
// from a generator seeded by (cfg.Seed, k).
func EVOParams(cfg Config) evo.Params {
	e := cfg.EVO
	return evo.Params{Population: e.Population, Generations: e.Generations, Mutation: e.Mutation,
		Stall: e.Stall, Budget: e.Budget, Init: e.Init, Seed: cfg.GPSeed(), Workers: e.Workers}
}

// Record is the objective section as the record a run stores (best.json's
// "objective_record"): the kind's name and only the parameters the kind
// reads (simcore.ObjectiveKind.Reads), validated by Resolve.
func (o Objective) Record() (runfile.Objective, error) {
	obj, err := o.Resolve()
	if err != nil {
		return runfile.Objective{}, err
	}
	return ObjectiveRecord(obj), nil
}

// ObjectiveRecord is o as a record (Objective.Record).
func ObjectiveRecord(o simcore.Objective) runfile.Objective {
	kind := o.Kind
	if kind == nil {
		kind = simcore.MultiCluster
	}
	rec := runfile.Objective{Kind: kind.Name()}
	reads := kind.Reads()
	if reads.Weights {
		rec.Weights = &o.Weights
	}
	if reads.Omega {
		rec.Omega = &o.Omega // o is a copy
	}
	return rec
}

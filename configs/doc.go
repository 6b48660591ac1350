// Package configs holds evogp's experiment configuration: the Config type,
// the embedded named configs (paper, quick, smoke, ...), strict YAML loading
// (unknown keys are errors), key=value overrides and range validation.
//
// configs imports datasets (Generator.Settings returns the generator
// settings as datasets.GenSettings; datasets does not import configs) and
// simcore: SimOptions and EVOParams are the one translation of a Config's
// sim, objective and evo sections into simcore's types, and objective.kind
// names a kind of simcore's table of objective kinds. It imports neither
// learn nor experiment.
package configs

// Package configs holds evogp's experiment configuration: the Config type,
// the embedded named configs (paper, quick, smoke, ...), strict YAML loading
// (unknown keys are errors), key=value overrides and range validation.
//
// configs imports datasets only (Generator.Settings returns the generator
// settings as datasets.GenSettings; datasets does not import configs);
// commands translate the rest of a Config into the settings types of
// simcore and learn.
package configs

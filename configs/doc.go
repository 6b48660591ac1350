// Package configs holds evogp's experiment configuration: the Config type,
// the embedded named configs (paper, quick, smoke, ...), strict YAML loading
// (unknown keys are errors), key=value overrides and range validation.
//
// configs imports no other evogp package; commands translate a Config into
// the settings types of datasets, simcore and learn.
package configs

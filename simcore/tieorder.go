package simcore

import (
	"fmt"
	"slices"
)

// Tie order of jobs submitted in the same second.
//
// The simulator visits jobs in arrival order, and every ranking breaks its
// ties by that arrival position. By default jobs of equal arrival are in
// id order. Peers that list the trace with an unstable sort see another
// order among them: Helios (HeliosArtifact) sorts its trace with pandas
// sort_values, whose default is numpy's quicksort (an introsort), so its
// FIFO runs same-second jobs in the permutation that sort leaves them in.
// Options.ArrivalTies selects that order to reproduce such a peer; it
// never changes the order of jobs with different arrivals.

// ArrivalTies names the order of jobs with equal arrival times.
type ArrivalTies string

const (
	// TiesByID orders same-second jobs by id (the default, "" too).
	TiesByID ArrivalTies = "id"
	// TiesNumpyQuicksort orders them as numpy's default argsort
	// (kind="quicksort", the introsort of numpy ≤ 1.24 for 64-bit keys)
	// leaves them when it sorts the arrival times of the jobs listed in
	// (arrival, id) order: the order Helios's pandas sort_values gives.
	TiesNumpyQuicksort ArrivalTies = "numpy-quicksort"
)

// ParseArrivalTies reads a tie-order name ("" is TiesByID).
func ParseArrivalTies(s string) (ArrivalTies, error) {
	switch ArrivalTies(s) {
	case "", TiesByID:
		return TiesByID, nil
	case TiesNumpyQuicksort:
		return TiesNumpyQuicksort, nil
	}
	return "", fmt.Errorf("arrival ties %q: want %q or %q", s, TiesByID, TiesNumpyQuicksort)
}

// applyArrivalTies permutes order (job indices sorted by arrival, then
// id) as ties says; order stays sorted by the time jobs join (their
// arrival unless Job.Release is later).
func applyArrivalTies(ties ArrivalTies, jobs []Job, order []int) {
	if ties != TiesNumpyQuicksort || len(order) < 2 {
		return
	}
	keys := make([]int64, len(order))
	for i, j := range order {
		keys[i] = jobs[j].joins()
	}
	listed := slices.Clone(order)
	for i, k := range NumpyQuicksortArgsort(keys) {
		order[i] = listed[k]
	}
}

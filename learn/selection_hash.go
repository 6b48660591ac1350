package learn

import "bytes"

// scalarSelectionLines are the gp.selection and gp.objectives lines of a
// marshalled config with the default scalar selection.
const scalarSelectionLines = "\n  selection: scalar\n  objectives: []\n"

// withoutScalarSelection drops the default gp.selection/gp.objectives
// lines from a marshalled config, so that the hash of a scalar config is
// the one it had before the keys existed and older checkpoints still
// resume (as ConfigHash does for gp.early_stop).
func withoutScalarSelection(b []byte) []byte {
	if bytes.Count(b, []byte(scalarSelectionLines)) != 1 {
		return b
	}
	return bytes.Replace(b, []byte(scalarSelectionLines), []byte("\n"), 1)
}

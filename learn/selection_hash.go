package learn

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	"github.com/evogp/evogp/configs"
)

// scalarSelectionLines are the gp.selection and gp.objectives lines of a
// marshalled config with the default scalar selection.
const scalarSelectionLines = "\n  selection: scalar\n  objectives: []\n"

// isPreSelectionHash reports whether hash is the ConfigHash c had before
// gp.selection and gp.objectives existed — that of its YAML without their
// default lines — so that the checkpoint of a scalar run started by an
// older evogp still resumes.
func isPreSelectionHash(c configs.Config, hash string) bool {
	if c.GP.Selection != "scalar" || len(c.GP.Objectives) > 0 {
		return false
	}
	c.GP.Workers = 0
	c.GP.EarlyStop = true
	b, err := c.Marshal()
	if err != nil || bytes.Count(b, []byte(scalarSelectionLines)) != 1 {
		return false
	}
	b = bytes.Replace(b, []byte(scalarSelectionLines), []byte("\n"), 1)
	b = bytes.Replace(b, []byte("\n  early_stop: true\n"), []byte("\n"), 1)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]) == hash
}

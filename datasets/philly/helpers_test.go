package philly

import (
	"github.com/evogp/evogp/internal/tracefiles"
	"testing"
)

func mustWindow(t testing.TB, s string) Window {
	t.Helper()
	w, err := ParseWindow(s)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// heliosOptions returns options keeping the VCs of the Helios VC file with
// its node counts over window w.
func heliosOptions(t testing.TB, w Window) Options {
	t.Helper()
	vcs, err := ReadVCFile(tracefiles.Philly(t, "helios_philly_vc.csv"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Window: w, Nodes: map[string]int{}}
	for _, vc := range vcs {
		o.VCs = append(o.VCs, vc.ID)
		o.Nodes[vc.ID] = vc.Nodes
	}
	return o
}

package datasets

import (
	"testing"

	"github.com/evogp/evogp/simcore"
)

func TestDeadlines(t *testing.T) {
	none := simcore.Instance{Jobs: []simcore.Job{{ID: 0}, {ID: 1}}}
	some := simcore.Instance{Jobs: []simcore.Job{{ID: 0, Deadline: 50}, {ID: 1}, {ID: 2, Deadline: 9}}}
	if CountDeadlines(none) != 0 || CountDeadlines(some) != 2 {
		t.Errorf("counts %d, %d; want 0, 2", CountDeadlines(none), CountDeadlines(some))
	}
	if HasDeadlines(nil) || HasDeadlines([]simcore.Instance{none}) || !HasDeadlines([]simcore.Instance{none, some}) {
		t.Error("HasDeadlines wrong")
	}
}
